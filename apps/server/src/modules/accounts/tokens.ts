import crypto from 'node:crypto';

/** 256 random bits, URL-safe. Only its SHA-256 is stored, so a database leak yields no sessions. */
export const newSessionToken = () => crypto.randomBytes(32).toString('base64url');

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
