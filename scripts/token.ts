/**
 * `npm run token -- --role ROLE [--producer ID] [--sub NAME] [--hours N]`: print a bearer token
 * signed with JWT_SECRET (the access rules, README "Tokens"). A PRODUCER token needs --producer.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { signToken } from '../src/graphql/auth/token';
import { Role } from '../src/law/types';

function fail(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run token -- --role ADMIN|AUDITOR|PRODUCER [--producer ID] [--sub NAME] [--hours N]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string' },
      producer: { type: 'string' },
      sub: { type: 'string' },
      hours: { type: 'string', default: '12' },
    },
    strict: true,
  });
  const secret = process.env.JWT_SECRET;
  if (!secret) fail('JWT_SECRET is not set: the token must be signed with the secret the server uses.');
  const role = (values.role ?? '').toUpperCase();
  if (!(role in Role)) fail(`--role must be ADMIN, AUDITOR or PRODUCER (got "${values.role ?? ''}")`);
  if (role === Role.PRODUCER && !/^\d+$/.test(values.producer ?? '')) fail('A PRODUCER token needs --producer ID (the producer\'s numeric id).');
  if (role !== Role.PRODUCER && values.producer) fail('Only a PRODUCER token carries --producer.');
  const hours = Number(values.hours);
  if (!Number.isInteger(hours) || hours < 1 || hours > 24 * 366) fail('--hours must be a whole number of hours, 1 to 8784.');
  const token = await signToken(
    secret,
    { sub: values.sub ?? `${role.toLowerCase()}${values.producer ? `-${values.producer}` : ''}`, role: role as Role, producerId: values.producer ?? null },
    hours,
  );
  process.stdout.write(`${token}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
