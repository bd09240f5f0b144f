import { createPublicKey, createSecretKey, KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { Role } from '../../law/types';
import { Actor } from '../../services/actor';
import { UnauthenticatedError } from '../../services/errors';

const ALLOWED_CLAIMS = new Set(['sub', 'role', 'producerId', 'iat', 'exp', 'nbf', 'iss', 'aud', 'jti']);

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

/** DESIGN §4: `Authorization: Bearer <JWT>` with claims sub, role and, for PRODUCER, producerId. */
export async function actorFromAuthorization(header: string | undefined, verifier: TokenVerifier, requestId: string | null): Promise<Actor> {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) throw new UnauthenticatedError('Authorization: Bearer <token> is required');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(match[1], verifier.key, { algorithms: verifier.algorithms, requiredClaims: ['sub'] }));
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('The token has expired');
    throw new UnauthenticatedError('The token is not valid');
  }
  const unknown = Object.keys(payload).filter((k) => !ALLOWED_CLAIMS.has(k));
  if (unknown.length) throw new UnauthenticatedError(`Unknown claims in token: ${unknown.join(', ')}`);
  const { sub, role, producerId } = payload;
  if (typeof sub !== 'string' || !sub) throw new UnauthenticatedError('The token has no subject');
  if (typeof role !== 'string' || !(role in Role)) throw new UnauthenticatedError('The token role must be ADMIN, AUDITOR or PRODUCER');
  if (role === Role.PRODUCER) {
    if (typeof producerId !== 'string' || !/^\d{1,18}$/.test(producerId)) throw new UnauthenticatedError('A PRODUCER token needs a producerId claim');
  } else if (producerId !== undefined) {
    throw new UnauthenticatedError('Only a PRODUCER token carries producerId');
  }
  return { sub, role: role as Role, producerId: role === Role.PRODUCER ? (producerId as string) : null, requestId };
}

/** Sign a token (for `npm run token`, start-up demo tokens and tests). */
export async function signToken(secret: string, claims: { sub: string; role: Role; producerId?: string | null }, hours = 12): Promise<string> {
  const body: Record<string, unknown> = { role: claims.role };
  if (claims.producerId) body.producerId = String(claims.producerId);
  return new SignJWT(body)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${hours}h`)
    .sign(createSecretKey(Buffer.from(secret, 'utf8')));
}
