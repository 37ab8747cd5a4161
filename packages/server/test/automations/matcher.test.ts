import { describe, expect, it } from 'vitest';
import { AutomationMatcher, type MatchableAutomation } from '../../src/automations/matcher';

const opened = { action: 'opened', pull_request: { base: { ref: 'main' }, draft: false }, labels: ['bug'] };
const closed = { action: 'closed', pull_request: { base: { ref: 'release' }, draft: false }, labels: [] };

const automations: MatchableAutomation[] = [
  { automationId: 'aut_all', enabled: true, webhookIds: ['wh_a'], payloadFilter: null },
  { automationId: 'aut_opened', enabled: true, webhookIds: ['wh_a', 'wh_b'], payloadFilter: { action: 'opened' } },
  { automationId: 'aut_main', enabled: true, webhookIds: ['wh_a'], payloadFilter: { pull_request: { base: { ref: ['main', 'master'] } } } },
  { automationId: 'aut_bug', enabled: true, webhookIds: ['wh_b'], payloadFilter: { labels: { in: ['bug'] } } },
  { automationId: 'aut_off', enabled: false, webhookIds: ['wh_a', 'wh_b'], payloadFilter: null },
  { automationId: 'aut_empty', enabled: true, webhookIds: ['wh_b'], payloadFilter: {} },
  { automationId: 'aut_nohooks', enabled: true, webhookIds: [], payloadFilter: null },
];

describe('AutomationMatcher', () => {
  const matcher = new AutomationMatcher(automations);

  it.each([
    ['wh_a', opened, ['aut_all', 'aut_opened', 'aut_main']],
    ['wh_a', closed, ['aut_all']],
    ['wh_b', opened, ['aut_opened', 'aut_bug', 'aut_empty']],
    ['wh_b', closed, ['aut_empty']],
    ['wh_a', [1, 2, 3], ['aut_all']],
    ['wh_b', 'scalar', ['aut_empty']],
    ['wh_unknown', opened, []],
  ] as const)('match(%s, %j) → %j', (webhook, payload, expected) => {
    expect(matcher.match(webhook, payload)).toEqual(expected);
  });

  it('does not index disabled automations', () => {
    expect(matcher.candidates('wh_a').map((c) => c.automationId)).not.toContain('aut_off');
    expect(matcher.size).toBe(6);
  });

  it('keeps list order and matches an automation once even if a webhook is listed twice', () => {
    const m = new AutomationMatcher([
      { automationId: 'z', enabled: true, webhookIds: ['wh', 'wh'], payloadFilter: null },
      { automationId: 'a', enabled: true, webhookIds: ['wh'], payloadFilter: null },
      { automationId: 'z', enabled: true, webhookIds: ['wh'], payloadFilter: null },
    ]);
    expect(m.match('wh', {})).toEqual(['z', 'a']);
  });

  it('candidates expose compiled filters usable on their own (explain for Test filter)', () => {
    const [onA] = matcher.candidates('wh_a').filter((c) => c.automationId === 'aut_opened');
    const [onB] = matcher.candidates('wh_b').filter((c) => c.automationId === 'aut_opened');
    for (const entry of [onA!, onB!]) {
      expect(entry.compiled.matches(opened)).toBe(true);
      expect(entry.compiled.explain(closed)).toEqual({ passed: false, path: '$.action', reason: 'expected "opened", got "closed"' });
    }
  });

  it('shared path resolution gives the same verdicts as standalone filters', () => {
    const list: MatchableAutomation[] = [
      { automationId: 'a', enabled: true, webhookIds: ['wh'], payloadFilter: { pull_request: { base: { ref: 'main' } } } },
      { automationId: 'b', enabled: true, webhookIds: ['wh'], payloadFilter: { pull_request: { base: { exists: false } } } },
      { automationId: 'c', enabled: true, webhookIds: ['wh'], payloadFilter: { pull_request: { base: { ref: { exists: false } } } } },
      { automationId: 'd', enabled: true, webhookIds: ['wh'], payloadFilter: { pull_request: { exists: true }, labels: 'bug' } },
      { automationId: 'e', enabled: true, webhookIds: ['wh'], payloadFilter: { constructor: { exists: false } } },
    ];
    const m = new AutomationMatcher(list);
    const payloads = [opened, closed, {}, { pull_request: null }, { pull_request: { base: 'main' } }, { pull_request: {} }, [opened], 'x', null];
    for (const payload of payloads) {
      const expected = m
        .candidates('wh')
        .filter((c) => c.compiled.explain(payload).passed)
        .map((c) => c.automationId);
      expect(m.match('wh', payload)).toEqual(expected);
    }
    expect(m.match('wh', { pull_request: {} })).toEqual(['b', 'e']);
    expect(m.match('wh', { pull_request: { base: {} } })).toEqual(['c', 'e']);
  });

  it('fails closed on an invalid stored filter and reports it, without breaking the others', () => {
    const m = new AutomationMatcher([
      { automationId: 'bad', enabled: true, webhookIds: ['wh'], payloadFilter: { action: { in: 'opened' } } },
      { automationId: 'good', enabled: true, webhookIds: ['wh'], payloadFilter: { action: 'opened' } },
    ]);
    expect(m.match('wh', { action: 'opened' })).toEqual(['good']);
    expect(m.skipped).toEqual([
      {
        automationId: 'bad',
        issues: [{ path: '$.action.in', message: '"in" must be an array of JSON scalars (string, number, boolean or null), got string' }],
      },
    ]);
    expect(m.size).toBe(1);
  });

  it('rebuild replaces the whole index', () => {
    const m = new AutomationMatcher(automations);
    expect(m.match('wh_a', opened)).toEqual(['aut_all', 'aut_opened', 'aut_main']);
    const returned = m.rebuild([{ automationId: 'aut_new', enabled: true, webhookIds: ['wh_c'], payloadFilter: { action: { not_in: ['opened'] } } }]);
    expect(returned).toBe(m);
    expect(m.match('wh_a', opened)).toEqual([]);
    expect(m.match('wh_c', opened)).toEqual([]);
    expect(m.match('wh_c', closed)).toEqual(['aut_new']);
    expect(m.size).toBe(1);
    expect(m.skipped).toEqual([]);
  });

  it('does not re-read the stored filter objects per delivery', () => {
    const filter = { action: 'opened' };
    const m = new AutomationMatcher([{ automationId: 'x', enabled: true, webhookIds: ['wh'], payloadFilter: filter }]);
    filter.action = 'closed';
    expect(m.match('wh', { action: 'opened' })).toEqual(['x']);
  });

  it('an empty matcher matches nothing', () => {
    const m = new AutomationMatcher();
    expect(m.match('wh', {})).toEqual([]);
    expect(m.candidates('wh')).toEqual([]);
    expect(m.size).toBe(0);
  });
});
