/** How the PostgreSQL query modules reach the database: one statement at a time, named. */
import type pg from "pg";

/** Runs one statement (pool or client). */
export type Run = <R extends pg.QueryResultRow>(
  name: string,
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<R>>;

/** What each query module is given: the runner, its rows shortcut and the environment id. */
export interface PgContext {
  run: Run;
  rows<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]>;
  environmentId(): string;
}

export function pgContext(run: Run, environmentId: () => string): PgContext {
  return {
    run,
    async rows<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) {
      return (await run<R>(name, text, values)).rows;
    },
    environmentId,
  };
}

/** A turn still running or waiting for input. */
export const UNFINISHED = "status IN ('running', 'waiting_for_input')";
