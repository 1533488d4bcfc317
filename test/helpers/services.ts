// The outside services some suites need, named by the variables that point to them. A suite
// whose service is not configured is skipped with a reason that names the variable; `npm test`
// with TEST_STRICT=1 (as .ci/run sets) fails when anything was skipped.

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** `skip` option for a suite that needs PostgreSQL: false when configured, else the reason. */
export const skipWithoutPostgres: false | string = TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set (PostgreSQL)';

/** `skip` option for a suite that needs Redis: false when configured, else the reason. */
export const skipWithoutRedis: false | string = TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set (Redis)';
