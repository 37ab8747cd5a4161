/** MODEL_PRICES as the operator writes it, and the micro-dollar arithmetic every counter relies on. */
import { describe, expect, it } from 'vitest';
import { costMicros, formatUsd, monthOf } from '../../src/budgets/money';
import { loadSettings, SettingsError } from '../../src/settings';

const settingsWith = (prices: string) => loadSettings({ DATABASE_URL: 'sqlite::memory:', MODEL_PRICES: prices });
const spent = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

describe('MODEL_PRICES', () => {
  it('reads USD per million input and output tokens per model; unset prices nothing', () => {
    const { modelPrices } = settingsWith('{"gpt-4.1": {"input_per_mtok": 2, "output_per_mtok": 8}, "free": {"input_per_mtok": 0, "output_per_mtok": 0}}');
    expect([...modelPrices]).toEqual([
      ['gpt-4.1', { input_per_mtok: 2, output_per_mtok: 8 }],
      ['free', { input_per_mtok: 0, output_per_mtok: 0 }],
    ]);
    expect(loadSettings({ DATABASE_URL: 'sqlite::memory:' }).modelPrices.size).toBe(0);
  });

  it.each([
    ['not JSON', '{gpt: 1}', /not JSON/],
    ['an array', '[1]', /not an object/],
    ['a price without output', '{"m": {"input_per_mtok": 1}}', /m needs input_per_mtok and output_per_mtok/],
    ['a negative price', '{"m": {"input_per_mtok": -1, "output_per_mtok": 1}}', /m needs/],
    ['a string price', '{"m": {"input_per_mtok": "1", "output_per_mtok": 1}}', /m needs/],
  ])('refuses %s, naming the setting', (_what, raw, why) => {
    expect(() => settingsWith(raw)).toThrow(SettingsError);
    expect(() => settingsWith(raw)).toThrow(why);
    expect(() => settingsWith(raw)).toThrow(/^MODEL_PRICES must be a JSON object/);
  });
});

describe('costs', () => {
  const { modelPrices } = settingsWith('{"m": {"input_per_mtok": 2.5, "output_per_mtok": 10}}');

  it('are tokens × the price per million tokens, in whole micro-dollars', () => {
    expect(costMicros(modelPrices, 'm', spent(1_000_000, 100_000))).toBe(3_500_000);
    expect(costMicros(modelPrices, 'm', spent(3, 1))).toBe(18); // 7.5 + 10 = 17.5, rounded
  });

  it('are 0 for a model without a price, and not kept at all without prices', () => {
    expect(costMicros(modelPrices, 'other', spent(1000, 1000))).toBe(0);
    expect(costMicros(new Map(), 'm', spent(1000, 1000))).toBeUndefined();
  });

  it('read as dollars to the micro-dollar', () => {
    expect(formatUsd(1_100)).toBe('$0.0011');
    expect(formatUsd(5_000_000)).toBe('$5.00');
    expect(formatUsd(123_456)).toBe('$0.123456');
  });

  it('count in the calendar month (UTC) of the instant', () => {
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });
});
