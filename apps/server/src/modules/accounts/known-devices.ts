import crypto from 'node:crypto';
// Types reply.setCookie, which the cookie plugin (registered in app.ts) declares.
import type {} from '@fastify/cookie';
import type { FastifyReply } from 'fastify';

/**
 * A browser that has signed in as someone carries a "known device" cookie, so that a lockout of
 * their username cannot keep them out. Failed logins back off per username (lib/failure-limiter):
 * anyone may guess wrong under any username, so anyone could keep its owner from signing in.
 * A login that shows this cookie for the username it tries counts its attempts under the
 * device's own key instead of the username's (OWASP's "device cookie"): the owner's browser
 * gets in, while an attacker without the cookie still meets the username's back-off, and one
 * with a stolen cookie meets the device's.
 *
 * The value is `{userId}.{nonce}.{mac}`, the MAC keyed by the user's password hash: no server
 * secret to share between processes, it cannot be made without the hash (which never leaves
 * the server), and a password change retires every such cookie.
 */
export const DEVICE_COOKIE = 'inkwell_device';

/** How long a browser stays known without signing in again. */
export const DEVICE_COOKIE_DAYS = 365;

export interface DeviceOwner {
  id: number;
  password_hash: string;
}

const macOf = (owner: DeviceOwner, nonce: string) =>
  crypto
    .createHmac('sha256', owner.password_hash)
    .update(`${owner.id}.${nonce}`)
    .digest('base64url');

/** A new cookie value for a browser that just signed in as `owner`. */
export function deviceCookieValue(owner: DeviceOwner): string {
  const nonce = crypto.randomBytes(12).toString('base64url');
  return `${owner.id}.${nonce}.${macOf(owner, nonce)}`;
}

/**
 * Makes this browser a known device of `owner`: after a sign-in, and after a new password (which
 * retired every cookie made with the old one, this browser's too).
 */
export function setDeviceCookie(
  reply: FastifyReply,
  owner: DeviceOwner,
  place: { secure: boolean; path: string },
) {
  reply.setCookie(DEVICE_COOKIE, deviceCookieValue(owner), {
    httpOnly: true,
    sameSite: 'lax',
    secure: place.secure,
    path: place.path,
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}

/** The user id a cookie value claims, before it is checked (null when it is not one). */
export function claimedUserId(value: string | undefined): number | null {
  const match = value?.match(/^(\d{1,10})\.[\w-]{16}\.[\w-]{43}$/);
  return match ? Number(match[1]) : null;
}

/**
 * The limiter key of the device the cookie `value` names, when it was given to `owner`; null
 * otherwise (no cookie, someone else's, or a forged one).
 */
export function knownDeviceKey(value: string | undefined, owner: DeviceOwner): string | null {
  if (value === undefined || claimedUserId(value) !== owner.id) return null;
  const [, nonce, mac] = value.split('.') as [string, string, string];
  const expected = Buffer.from(macOf(owner, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
    ? `device:${nonce}`
    : null;
}
