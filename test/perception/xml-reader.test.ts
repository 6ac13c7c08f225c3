import { describe, expect, it } from 'vitest';
import { decodeEntities, readXml } from '../../src/perception/xml-reader.js';

describe('readXml', () => {
  it('reads nested elements, both quote styles, entities and character references', () => {
    const r = readXml(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<!-- dump -->\n<hierarchy rotation="1"><node text="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;&#10;f&#x4e2d;" k='v'><node/></node><![CDATA[x]]></hierarchy>`,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.root.name).toBe('hierarchy');
    expect(r.root.attrs.rotation).toBe('1');
    const n = r.root.children[0];
    expect(n.attrs.text).toBe('a & b <c> "d" \'e\'\nf中');
    expect(n.attrs.k).toBe('v');
    expect(n.children).toHaveLength(1);
  });

  it('keeps an unknown entity or a bare ampersand as written', () => {
    expect(decodeEntities('R&D &nbsp; &#xZZ;')).toBe('R&D &nbsp; &#xZZ;');
  });

  it.each([
    ['<hierarchy><node></hierarchy>', /does not match <node>/],
    ['<hierarchy><node a="1" a="2"/></hierarchy>', /duplicate attribute 'a'/],
    ['<hierarchy><node a="1"', /unterminated start tag|unexpected/],
    ['<hierarchy><node text=unquoted/></hierarchy>', /malformed attribute/],
    ['<hierarchy></hierarchy><hierarchy/>', /second root/],
    ['garbage <hierarchy/>', /text before the root/],
    ['<hierarchy>', /unclosed element <hierarchy>/],
    ['<hierarchy></node>', /does not match <hierarchy>/],
    ['<!-- never closed', /unterminated comment/],
    ['', /no XML element/],
  ])('names what is wrong in %j', (src, re) => {
    const r = readXml(src);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(re);
    }
  });

  it('reports the line and column of the problem', () => {
    const r = readXml('<hierarchy>\n  <node a="1" a="2"/>\n</hierarchy>');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/line 2, column/);
  });
});
