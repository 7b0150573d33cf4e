import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

// PG_RANDOM_PAGE_COST (decision 0042): unset, the server's PostgreSQL sessions take
// PLANNER_RANDOM_PAGE_COST (book-card-plans.test.ts checks the session); a number sets another
// cost, `server` keeps the server's own, and anything else stops the start with its name.
const load = (value?: string) =>
  loadConfig({
    DATABASE_URL: 'postgres://unused/db',
    ...(value !== undefined && { PG_RANDOM_PAGE_COST: value }),
  }).PG_RANDOM_PAGE_COST;

describe('PG_RANDOM_PAGE_COST', () => {
  it('is unset by default, a positive number, or server', () => {
    expect(load()).toBeUndefined();
    expect(load('2')).toBe(2);
    expect(load('1.5')).toBe(1.5);
    expect(load('server')).toBe('server');
  });

  it('refuses anything else, naming the setting', () => {
    for (const bad of ['0', '-1', 'fast', 'SERVER'])
      expect(() => load(bad)).toThrow(/PG_RANDOM_PAGE_COST/);
  });
});
