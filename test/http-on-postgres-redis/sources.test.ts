// test/http/sources.test.ts, unchanged, on PostgreSQL + Redis instead of SQLite.
import { onPostgresAndRedis } from '../helpers/on-postgres-redis.js';

await onPostgresAndRedis(() => import('../http/sources.test.js'));
