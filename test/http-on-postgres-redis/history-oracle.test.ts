// test/http/history-oracle.test.ts, unchanged, on PostgreSQL + Redis instead of SQLite.
import { onPostgresAndRedis } from '../helpers/on-postgres-redis.js';

await onPostgresAndRedis(() => import('../http/history-oracle.test.js'));
