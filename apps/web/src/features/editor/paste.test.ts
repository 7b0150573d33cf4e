import { describe, expect, it } from 'vitest';
import { cleanPastedHtml } from './paste.ts';

/** Whitespace between tags is the source's layout, not text. */
const squash = (html: string) => html.replace(/>\s+</g, '><').trim();

describe('pasting rich text keeps bold, italics, strike, headings and lists, and drops the rest', () => {
  it('reads Google Docs, whose bold and italics are styles inside a <b style="font-weight:normal"> wrapper', () => {
    const docs = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b"><h2 dir="ltr" style="line-height:1.38;margin-top:18pt;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">The Storm</span></h2><p dir="ltr" style="line-height:1.38;"><span style="font-size:11pt;font-weight:400;font-style:normal;">Plain, </span><span style="font-size:11pt;font-weight:700;font-style:normal;">bold</span><span style="font-weight:400;font-style:italic;">italic</span><span style="font-weight:700;font-style:italic;">both</span><span style="font-weight:400;text-decoration:line-through;">struck</span></p><br><ul style="margin-top:0;"><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">One</span></p></li><ul><li aria-level="2"><p><span style="font-weight:400;">Under one</span></p></li></ul><li><p><span style="font-weight:400;">Two</span></p></li></ul><ol><li><p><span style="font-weight:400;">First</span></p></li></ol></b><br class="Apple-interchange-newline">`;
    expect(cleanPastedHtml(docs)).toBe(
      '<h2>The Storm</h2>' +
        '<p>Plain, <strong>bold</strong><em>italic</em><strong><em>both</em></strong><s>struck</s></p>' +
        '<ul><li><p>One</p><ul><li><p>Under one</p></li></ul></li><li><p>Two</p></li></ul>' +
        '<ol><li><p>First</p></li></ol>',
    );
  });

  it('reads Word, whose lists are styled paragraphs with a hidden bullet', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body lang=EN-GB>
<!--StartFragment-->
<h1><span lang=EN-GB>Part One<o:p></o:p></span></h1>
<p class=MsoNormal>Some <b>bold</b> and <i>italic</i> and <b><i>both</i></b><span style='color:red'> in red</span><o:p></o:p></p>
<p class=MsoNormal>&nbsp;</p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Apples<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span>&nbsp;&nbsp; </span></span></span><![endif]>Green ones<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>·<span>&nbsp;</span></span><![endif]>Pears<o:p></o:p></p>
<p class=MsoListParagraph style='mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>1.<span>&nbsp;</span></span><![endif]><i>Numbered</i><o:p></o:p></p>
<!--EndFragment-->
</body></html>`;
    expect(squash(cleanPastedHtml(word))).toBe(
      '<h1>Part One</h1>' +
        '<p>Some <strong>bold</strong> and <em>italic</em> and <strong><em>both</em></strong> in red</p>' +
        '<ul><li><p>Apples</p><ul><li><p>Green ones</p></li></ul></li><li><p>Pears</p></li></ul>' +
        '<ol><li><p><em>Numbered</em></p></li></ol>',
    );
  });

  it('keeps the text of web pages but not their links, images, tables, code, scripts or styles', () => {
    const web = `<div class="post"><style>p{color:red}</style><p style="color:#333" class="lead">Text with <a href="https://example.com">a link</a>,<img src="x.png" alt="x"> <code>code</code> and <u>underline</u>.</p><table><tr><td>Cell <strong>one</strong></td><td>Cell two</td></tr></table><blockquote>A quote</blockquote><script>alert(1)</script><font face="Arial"><i style="font-style:normal">upright</i> <span style="font-weight:bold">heavy</span> <span style="font-weight:300">light</span></font></div>`;
    expect(cleanPastedHtml(web)).toBe(
      '<p>Text with a link, code and underline.</p><p>Cell <strong>one</strong></p><p>Cell two</p><p>A quote</p><p>upright <strong>heavy</strong> light</p>',
    );
  });

  it('keeps line breaks inside a paragraph but not around it, and drops empty paragraphs', () => {
    expect(cleanPastedHtml('<p><br>Line one<br>Line two<br></p><p>&nbsp;</p><p> </p>')).toBe(
      '<p>Line one<br>Line two</p>',
    );
  });

  it('passes through what was copied from the editor itself', () => {
    const own = '<p data-pm-slice="1 1 []">Hello <a href="https://x.test">link</a></p>';
    expect(cleanPastedHtml(own)).toBe(own);
  });
});
