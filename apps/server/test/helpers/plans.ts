import { CompiledQuery } from 'kysely';
import { createDb, type Db, type PoolOptions } from '../../src/db/kysely.ts';

/** A node of PostgreSQL's plan (EXPLAIN's JSON), with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/**
 * A handle on `url` that keeps every statement it runs, so that a test can run a repository or
 * service on it and EXPLAIN what it sent. Empty `statements` with `statements.length = 0`.
 */
export function statementLog(url: string, options: Partial<PoolOptions> = {}) {
  const statements: CompiledQuery[] = [];
  const db = createDb(url, { size: 1, waitMs: 5_000, statementTimeoutMs: 0, ...options }, (e) => {
    if (e.level === 'query') statements.push(e.query);
  });
  return { db, statements };
}

/**
 * Every node of PostgreSQL's plan for `statement`, depth first, as planned on `db`'s session
 * (with its settings, such as the server's random_page_cost).
 */
export async function postgresPlanNodes(db: Db, statement: CompiledQuery): Promise<PlanNode[]> {
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
  );
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return nodes;
}
