import type { Database } from '../../src/db/client.ts';

/**
 * Every text-like column (text, varchar, json, jsonb, arrays) of every table outside the system
 * schemas that holds one of `needles` (case-insensitive): `schema.table.column` for each hit.
 */
export async function scanFor(database: Pick<Database, 'execute'>, needles: string[]): Promise<string[]> {
  const { rows } = await database.execute(
    `select table_schema, table_name, column_name from information_schema.columns
      where table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg_%'
        and data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY', 'character')
        and table_name in (select table_name from information_schema.tables where table_type = 'BASE TABLE')`,
  );
  const hits: string[] = [];
  for (const r of rows) {
    const table = `"${r.table_schema}"."${r.table_name}"`;
    const column = `"${r.column_name}"`;
    for (const needle of needles) {
      const { rows: found } = await database.execute(
        `select count(*)::int as n from ${table} where ${column}::text ilike '%' || $1 || '%'`,
        [needle],
      );
      if (Number(found[0].n) > 0) hits.push(`${r.table_schema}.${r.table_name}.${r.column_name}: ${needle}`);
    }
  }
  return hits;
}
