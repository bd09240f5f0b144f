import { createPublicKey, createSecretKey, KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { Role } from '../../law/types';
import { Actor } from '../../services/actor';
import { UnauthenticatedError } from '../../services/errors';
import { message } from '../../i18n';
import { isBlank, textRefused } from '../../services/validation';

/** How long a token made here (`npm start`'s, `npm run token`'s by default) lasts. */
export const TOKEN_HOURS = 12;

/** The longest subject a token may name (it is written into audit entries). */
export const SUBJECT_MAX = 255;

/**
 * The only claims a token may carry: a role of Role's own values, `sub` without control
 * characters, direction overrides or lone surrogates, `producerId` 1–18 digits; whether it fits the role is checked after.
 */
const CLAIMS = z.strictObject({
  // Written into audit entries and shown: refused as any text input is, and something visible must name the actor.
  sub: z.string().min(1).max(SUBJECT_MAX).refine((sub) => !textRefused(sub, SUBJECT_MAX) && !isBlank(sub)),
  role: z.enum(Role),
  producerId: z.string().regex(/^\d{1,18}$/).optional(),
  iat: z.number().optional(),
  exp: z.number().optional(),
  nbf: z.number().optional(),
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  jti: z.string().optional(),
});

/** The refusal of claims that do not fit CLAIMS: the first problem, in the order a person fixes them. */
function claimsRefusal(issues: z.core.$ZodIssue[]): UnauthenticatedError {
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') return new UnauthenticatedError(message('auth.unknownClaims', { claims: unknown.keys.join(', ') }));
  const at = (claim: string) => issues.some((i) => i.path[0] === claim);
  if (at('sub')) return new UnauthenticatedError(message('auth.badSubject', { max: SUBJECT_MAX }));
  if (at('role')) return new UnauthenticatedError(message('auth.badRole'));
  if (at('producerId')) return new UnauthenticatedError(message('auth.producerIdRequired'));
  return new UnauthenticatedError(message('auth.tokenInvalid'));
}

/**
 * How tokens are verified. HS256 with JWT_SECRET today; an asymmetric key (e.g. RS256/EdDSA
 * from a JWKS) is a change of `key` and `algorithms` only.
 */
export interface TokenVerifier {
  key: KeyObject | Uint8Array;
  algorithms: string[];
}

export function hs256(secret: string): TokenVerifier {
  return { key: createSecretKey(Buffer.from(secret, 'utf8')), algorithms: ['HS256'] };
}

const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);

/**
 * Tokens signed elsewhere (an identity provider) with an asymmetric key: the server holds only the
 * public key (PEM, SPKI) and accepts only `algorithm`, never HS256 with that key.
 */
export function publicKey(pem: string, algorithm: string): TokenVerifier {
  if (!ASYMMETRIC.has(algorithm)) throw new Error(`JWT_ALGORITHM must be one of ${[...ASYMMETRIC].join(', ')}`);
  return { key: createPublicKey(pem), algorithms: [algorithm] };
}

/**
 * The verifier the configuration asks for: JWT_PUBLIC_KEY (PEM) with JWT_ALGORITHM when set,
 * else HS256 with the shared secret.
 */
export function verifierFromEnvironment(env: NodeJS.ProcessEnv, secret: string): TokenVerifier {
  if (env.JWT_PUBLIC_KEY) return publicKey(env.JWT_PUBLIC_KEY.replace(/\\n/g, '\n'), env.JWT_ALGORITHM ?? 'RS256');
  return hs256(secret);
}

/** What a verified token grants, and from when until when (seconds since the epoch). */
interface Verified { sub: string; role: Role; producerId: string | null; nbf: number | null; exp: number | null; until: number }

/**
 * Verified tokens by text, so a client's signature check (~0.5 ms) runs once: honoured within
 * nbf/exp and VERIFIED_TTL_MS, at most VERIFIED_MAX kept.
 */
const verifiedTokens = new WeakMap<TokenVerifier, Map<string, Verified>>();
const VERIFIED_MAX = 1_000;
const VERIFIED_TTL_MS = 60_000;

function cachedVerification(verifier: TokenVerifier, token: string, nowMs: number): Verified | undefined {
  const cache = verifiedTokens.get(verifier);
  const hit = cache?.get(token);
  if (!hit) return undefined;
  const now = Math.floor(nowMs / 1000);
  // jose's checks, no clock tolerance: nbf > now is "not yet", exp <= now "expired".
  if (hit.until <= nowMs || (hit.exp !== null && hit.exp <= now) || (hit.nbf !== null && hit.nbf > now)) {
    cache!.delete(token);
    return undefined;
  }
  return hit;
}

function remember(verifier: TokenVerifier, token: string, verified: Verified): void {
  let cache = verifiedTokens.get(verifier);
  if (!cache) verifiedTokens.set(verifier, (cache = new Map()));
  if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, verified);
}

/** the access rules, README "Tokens": `Authorization: Bearer <JWT>` with claims sub, role and, for PRODUCER, producerId. */
export async function actorFromAuthorization(header: string | undefined, verifier: TokenVerifier, requestId: string | null): Promise<Actor> {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) throw new UnauthenticatedError(message('auth.bearerRequired'));
  const token = match[1];
  const known = cachedVerification(verifier, token, Date.now());
  if (known) return { sub: known.sub, role: known.role, producerId: known.producerId, requestId };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, verifier.key, { algorithms: verifier.algorithms, requiredClaims: ['sub'] }));
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new UnauthenticatedError(message('auth.tokenExpired'));
    throw new UnauthenticatedError(message('auth.tokenInvalid'));
  }
  const claims = CLAIMS.safeParse(payload);
  if (!claims.success) throw claimsRefusal(claims.error.issues);
  const { sub, role, producerId } = claims.data;
  if (role === Role.PRODUCER) {
    if (producerId === undefined) throw new UnauthenticatedError(message('auth.producerIdRequired'));
  } else if (producerId !== undefined) {
    throw new UnauthenticatedError(message('auth.producerIdOnlyForProducer'));
  }
  // The id in one form for every path that reads it (`01` is producer 1, as the database reads it).
  const actor = { sub, role, producerId: role === Role.PRODUCER ? BigInt(producerId!).toString() : null };
  remember(verifier, token, {
    ...actor,
    nbf: typeof payload.nbf === 'number' ? payload.nbf : null,
    exp: typeof payload.exp === 'number' ? payload.exp : null,
    until: Date.now() + VERIFIED_TTL_MS,
  });
  return { ...actor, requestId };
}

/** Sign a token (for `npm run token`, start-up demo tokens and tests). */
export async function signToken(secret: string, claims: { sub: string; role: Role; producerId?: string | null }, hours = TOKEN_HOURS): Promise<string> {
  const body: Record<string, unknown> = { role: claims.role };
  if (claims.producerId) body.producerId = String(claims.producerId);
  return new SignJWT(body)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${hours}h`)
    .sign(createSecretKey(Buffer.from(secret, 'utf8')));
}
