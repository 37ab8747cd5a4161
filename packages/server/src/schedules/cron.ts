/**
 * Cron expressions of scheduled agents, on croner (11.0.1: no dependencies, IANA time zones through Intl,
 * Vixie cron's DST rules — docs/decisions.md §Schedules): five fields or a nickname, read in an IANA time
 * zone. The contract's `CronSchedule` says what clients may write; this module is the one place that
 * parses it.
 */
import { Cron, CronPattern } from 'croner';

/** Why an expression or a zone cannot be a schedule, with the request path it is about. */
export class InvalidScheduleError extends Error {
  override readonly name = 'InvalidScheduleError';
  constructor(
    readonly path: '$.cron_schedule' | '$.time_zone',
    message: string,
  ) {
    super(message);
  }
}

const MINUTES_PER_DAY = 24 * 60;
/** Slots are whole minutes: no seconds field (a sixth field is refused). */
const CRON_OPTIONS = { mode: '5-part' } as const;

/** Intl's zone names by lower case, to give a zone its usual letter case. */
const ZONE_SPELLINGS = new Map([...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone]));

/**
 * An IANA time zone Intl's database knows, in its usual letter case (`europe/paris` → `Europe/Paris`), or
 * undefined. A link is kept as given (`Asia/Kolkata`; ICU would answer the older `Asia/Calcutta`). UTC
 * offsets (`+02:00`) are not zones: they do not follow DST.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]*$/.test(name)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return undefined;
  }
  return ZONE_SPELLINGS.get(name.toLowerCase()) ?? name;
}

/** The expression's firing times for `timeZone`; throws InvalidScheduleError when it does not parse. */
function cronOf(expression: string, timeZone: string): Cron {
  try {
    return new Cron(expression, { ...CRON_OPTIONS, timezone: timeZone });
  } catch (err) {
    throw new InvalidScheduleError('$.cron_schedule', `cron_schedule is not a valid cron expression: ${reason(err)}`);
  }
}

/** croner's message without its "CronPattern: " prefix (it names the offending part). */
const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/^Cron\w*: /, '');

/** The first slot strictly after `after`, or null when the expression has none. */
export function nextSlotAfter(expression: string, timeZone: string, after: Date): Date | null {
  return cronOf(expression, timeZone).nextRun(after);
}

/**
 * The closest two slots of the expression can come, in minutes, from its minutes and hours alone: the
 * smallest step between two clock times of a day, the step from a day's last time to the next day's
 * first included (whether or not the day fields let consecutive days fire, so the figure never
 * overstates). A clock that repeats an hour (DST ends) can bring two slots closer once a year.
 */
export function minimumIntervalMinutes(expression: string): number {
  const pattern = new CronPattern(expression, undefined, CRON_OPTIONS);
  const times: number[] = [];
  pattern.hour.forEach((hourOn, hour) => {
    if (hourOn) pattern.minute.forEach((minuteOn, minute) => minuteOn && times.push(hour * 60 + minute));
  });
  let smallest = MINUTES_PER_DAY - times[times.length - 1]! + times[0]!;
  for (let i = 1; i < times.length; i++) smallest = Math.min(smallest, times[i]! - times[i - 1]!);
  return smallest;
}

/**
 * Checks that `expression` in `timeZone` can be a schedule: a valid zone, an expression that parses, fires
 * at least once after `now`, and whose slots never come closer than `minIntervalSeconds`. Returns the
 * canonical zone and the first slot.
 */
export function checkSchedule(expression: string, timeZone: string, now: Date, minIntervalSeconds: number): { timeZone: string; firstSlot: Date } {
  const zone = canonicalTimeZone(timeZone);
  if (!zone) {
    throw new InvalidScheduleError('$.time_zone', `time_zone "${timeZone}" is not an IANA time zone (for example Europe/Paris, America/New_York or UTC).`);
  }
  const cron = cronOf(expression, zone);
  const gapSeconds = minimumIntervalMinutes(expression) * 60;
  if (gapSeconds < minIntervalSeconds) {
    throw new InvalidScheduleError(
      '$.cron_schedule',
      `cron_schedule fires ${gapSeconds} seconds apart at the closest; this server allows no less than ${minIntervalSeconds} seconds between two slots (SCHEDULE_MIN_INTERVAL_SECONDS).`,
    );
  }
  const firstSlot = cron.nextRun(now);
  if (!firstSlot) throw new InvalidScheduleError('$.cron_schedule', 'cron_schedule never fires (no date matches it).');
  return { timeZone: zone, firstSlot };
}
