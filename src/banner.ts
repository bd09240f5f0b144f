import path from 'node:path';
import { DataSource } from 'typeorm';
import { DEMO_MARKER_CNPJ } from './database/demo-data';
import { escapeControlCharacters } from './formats/control-characters';
import { signToken, TOKEN_HOURS } from './graphql/auth/token';
import { Role } from './law/types';

/** `file` relative to the working folder when it lies inside it (`.data/pg/…`), else as it is. */
function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * What `npm start` on the embedded database prints once ready: the GraphiQL link signed in as
 * ADMIN (the token in the URL fragment, which GraphiQL moves into its Authorization header and
 * the browser never sends), then a token per role, all signed with the kept secret.
 */
export async function tokenBanner(url: string, secretFile: string, secret: string, dataSource: DataSource): Promise<string> {
  const admin = await signToken(secret, { sub: 'demo-admin', role: Role.ADMIN });
  const auditor = await signToken(secret, { sub: 'demo-auditor', role: Role.AUDITOR });
  const [first] = (await dataSource.query('SELECT id, legal_name FROM producer ORDER BY cnpj = $1 DESC, id LIMIT 1', [DEMO_MARKER_CNPJ])) as Array<{ id: string; legal_name: string }>;
  // A legal name is data: stored before control characters were refused, it could move the cursor,
  // retitle the terminal or print a line that looks like a token of ours.
  const producer = first
    ? `  PRODUCER (${escapeControlCharacters(first.legal_name)}, id ${first.id}): Bearer ${await signToken(secret, { sub: `demo-producer-${first.id}`, role: Role.PRODUCER, producerId: String(first.id) })}`
    : '  PRODUCER: no producer yet; after creating one: npm run token -- --role PRODUCER --producer ID (with JWT_SECRET)';
  return [
    '',
    `Selo API ready: ${url}#token=${admin} (GraphiQL, signed in as ADMIN)`,
    `Tokens (${TOKEN_HOURS} hours; signed with the secret kept in ${shortPath(secretFile)}, which JWT_SECRET overrides):`,
    `  ADMIN: Bearer ${admin}`,
    `  AUDITOR: Bearer ${auditor}`,
    producer,
    '',
  ].join('\n');
}
