import type { Flag } from '../db/schema.ts';

/** The one place booleans cross between the API (true/false) and the database (1/0). */
export const toFlag = (value: boolean): Flag => (value ? 1 : 0);
export const fromFlag = (value: number | boolean): boolean => value === 1 || value === true;

/** A JSON array column: parsed by the driver on PostgreSQL, text on SQLite. */
export const fromJsonList = <T>(value: T[] | string): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : value;

/** The one place timestamps are made: ISO-8601 UTC text, sortable as a string on both engines. */
export const nowIso = (): string => new Date().toISOString();

export const daysAgoIso = (days: number): string =>
  new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
