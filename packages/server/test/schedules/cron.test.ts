/** The cron rules of scheduled agents (schedules/cron.ts): the closest two slots, zones, and what never fires. */
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, checkSchedule, InvalidScheduleError, minimumIntervalMinutes } from '../../src/schedules/cron';

describe('minimumIntervalMinutes', () => {
  it.each([
    ['* * * * *', 1],
    ['*/15 * * * *', 15],
    ['*/7 * * * *', 4], // 56 → next hour's 0
    ['0 * * * *', 60],
    ['0,50 9 * * *', 50],
    ['0 23,0 * * *', 60], // 23:00 → 00:00 the next day
    ['30 2 * * *', 1440],
    ['0 9 * * 1-5', 1440], // the day fields never bring slots closer
    ['@hourly', 60],
    ['@daily', 1440],
  ])('%s → %i minutes', (expression, minutes) => {
    expect(minimumIntervalMinutes(expression)).toBe(minutes);
  });
});

describe('canonicalTimeZone', () => {
  it('answers IANA names in their canonical spelling and refuses offsets, paths and unknown zones', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata'); // a link stays as given
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const bad of ['+02:00', 'UTC+2', '../etc/passwd', 'Mars/Olympus_Mons', '', 'Europe/Paris\n']) expect(canonicalTimeZone(bad), bad).toBeUndefined();
  });
});

describe('checkSchedule', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const problem = (expression: string, zone = 'UTC', min = 300): InvalidScheduleError => {
    try {
      checkSchedule(expression, zone, now, min);
    } catch (err) {
      if (err instanceof InvalidScheduleError) return err;
      throw err;
    }
    throw new Error(`${expression} was accepted`);
  };

  it('answers the canonical zone and the first slot strictly after now', () => {
    expect(checkSchedule('0 10 * * *', 'utc', now, 300)).toEqual({ timeZone: 'UTC', firstSlot: new Date('2026-11-28T10:00:00Z') });
    expect(checkSchedule('0 12 * * *', 'Asia/Tokyo', now, 300).firstSlot).toEqual(new Date('2026-11-28T03:00:00Z'));
  });

  it('says which field is wrong and why', () => {
    expect(problem('0 9 * * *', 'Nowhere/Land')).toMatchObject({ path: '$.time_zone' });
    expect(problem('0 0 31 2 *')).toMatchObject({ path: '$.cron_schedule', message: expect.stringContaining('never fires') });
    expect(problem('*/1 * * * *', 'UTC', 120)).toMatchObject({ path: '$.cron_schedule', message: expect.stringContaining('SCHEDULE_MIN_INTERVAL_SECONDS') });
    expect(problem('0 9 * *')).toMatchObject({ path: '$.cron_schedule', message: expect.stringContaining('not a valid cron expression') });
    expect(problem('0 9 * * 8').message).not.toContain('CronPattern');
  });
});
