import net from 'node:net';

/**
 * The address a per-address limit counts under: an IPv4 address as it is (an IPv4-mapped IPv6
 * one as IPv4), an IPv6 address by its /64, since one subscriber is given a whole /64 and can
 * pick any address in it.
 */
export function clientAddress(ip: string): string {
  if (!net.isIPv6(ip)) return ip.toLowerCase();
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0]!; // without a zone (fe80::1%eth0)
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const read = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const [head, tail] = text.split('::');
  const front = read(head);
  const back = read(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
