import type pg from 'pg';

/**
 * Statement texts a connection prepares at most. The statements that run again and again are a
 * few dozen; texts that keep changing (an IN list of each length) would otherwise take server
 * memory per connection without end. Past this, new texts run unnamed, as before.
 */
export const PREPARED_PER_CONNECTION = 256;

/** Texts seen once that a connection remembers, waiting for their second use. */
const REMEMBERED_PER_CONNECTION = 2048;

/**
 * Sends a statement text this connection has run before as a named prepared statement
 * (docs/decisions/0019-fewer-round-trips-and-prepared-statements.md). PostgreSQL parses and plans
 * every unnamed statement anew, which for a search's statements costs as much as running them.
 * A named statement is parsed once per connection, and PostgreSQL reuses a generic plan once it
 * estimates that plan no dearer than planning each time for the values at hand
 * (`plan_cache_mode = auto`); otherwise it keeps planning with the values. Statements without
 * parameters (transaction control, migrations' DDL, several statements in one string) keep the
 * simple protocol.
 */
export function prepareRepeatedStatements(
  client: pg.PoolClient,
  budget = PREPARED_PER_CONNECTION,
): void {
  // Text → its statement name, or null when seen once.
  const texts = new Map<string, string | null>();
  let prepared = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const preparing = (text: unknown, values: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0)
      return query(text, values, ...rest);
    const name = texts.get(text);
    if (name) return query({ name, text, values }, ...rest);
    if (name === null && prepared < budget) {
      const next = `inkwell_${++prepared}`;
      texts.set(text, next);
      return query({ name: next, text, values }, ...rest);
    }
    if (name === undefined && texts.size < REMEMBERED_PER_CONNECTION) texts.set(text, null);
    return query(text, values, ...rest);
  };
  client.query = preparing as typeof client.query;
}
