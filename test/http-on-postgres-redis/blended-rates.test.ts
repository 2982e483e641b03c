// test/http/blended-rates.test.ts, unchanged, on PostgreSQL + Redis instead of SQLite.
import { onPostgresAndRedis } from '../helpers/on-postgres-redis.js';

await onPostgresAndRedis(() => import('../http/blended-rates.test.js'));
