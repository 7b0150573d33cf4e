import { CHAT_MAX_MESSAGE_BYTES } from '@inkwell/contract/constants';

/** The server's refusal of a larger message (REFUSED.tooLarge), word for word. */
export const TOO_LARGE = `Message too large: at most ${CHAT_MAX_MESSAGE_BYTES / 1024} KB`;

/** Said when the connection went before the server told what became of a sent message. */
export const LOST_UNCONFIRMED = 'The connection was lost before your message was confirmed.';

/** A message's size as the server counts it: UTF-8 bytes of the HTML sent. */
export const messageBytes = (html: string) => new TextEncoder().encode(html).byteLength;
