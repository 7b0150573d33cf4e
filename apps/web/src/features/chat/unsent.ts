/** What the chat room says of a message that did not go out, or whose fate is unknown. */
export const NOT_CONNECTED = 'Not connected. Your message was not sent.';

/** Said when the connection went before the server told what became of a sent message. */
export const LOST_UNCONFIRMED = 'The connection was lost before your message was confirmed.';

/** A message's size as the server counts it: UTF-8 bytes of the HTML sent. */
export const messageBytes = (html: string) => new TextEncoder().encode(html).byteLength;
