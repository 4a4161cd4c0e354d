import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import {
  buildXml,
  dav,
  el,
  escapeAttribute,
  escapeText,
  NS,
  type XmlNode,
  xmlChunks,
} from './xml.js';

const parse = (text: string) => new DOMParser().parseFromString(text, 'text/xml').documentElement;

const collect = async (chunks: AsyncIterable<string>) => {
  const pieces: string[] = [];
  for await (const piece of chunks) pieces.push(piece);
  return pieces;
};

describe('the XML writer', () => {
  it('escapes what would be markup in text and attributes', () => {
    expect(escapeText('a < b && c > d ]]>')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt;');
    expect(escapeAttribute('say "hi"\t<&>\r\n')).toBe(
      'say &quot;hi&quot;&#9;&lt;&amp;&gt;&#13;&#10;',
    );
  });

  it('writes an answer a namespace-aware parser reads back exactly', () => {
    const title = 'Buy <milk> & "eggs" ]]> \u00e9\u{1F95A}\nsecond line';
    const text = buildXml(
      dav(
        'multistatus',
        dav('response', dav('href', '/dav/a&b.ics'), el(NS.caldav, 'calendar-data', title)),
        el('http://example.com/x', 'unknown-prop'),
        { ns: NS.caldav, name: 'comp', attributes: { name: 'V"TODO' } },
      ),
    );
    expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
    const root = parse(text);
    expect(root?.namespaceURI).toBe(NS.dav);
    expect(root?.localName).toBe('multistatus');
    expect(root?.getElementsByTagNameNS(NS.dav, 'href')[0]?.textContent).toBe('/dav/a&b.ics');
    expect(root?.getElementsByTagNameNS(NS.caldav, 'calendar-data')[0]?.textContent).toBe(title);
    expect(root?.getElementsByTagNameNS('http://example.com/x', 'unknown-prop')).toHaveLength(1);
    expect(root?.getElementsByTagNameNS(NS.caldav, 'comp')[0]?.getAttribute('name')).toBe('V"TODO');
  });

  it('streams the extra children after the root’s own, in order, as one document', async () => {
    const pieces = await collect(
      xmlChunks(dav('multistatus', dav('response')), [dav('sync-token', 'urn:tally:sync:3')]),
    );
    expect(pieces).toHaveLength(1);
    const names = Array.from(parse(pieces.join(''))?.childNodes ?? []).map((n) => n.localName);
    expect(names).toEqual(['response', 'sync-token']);
  });

  it('streams a long answer in pieces of about 16 KB that read back as the whole', async () => {
    async function* responses(): AsyncGenerator<XmlNode> {
      for (let i = 0; i < 2000; i += 1) {
        yield dav('response', dav('href', `/dav/${i}.ics`), el(NS.caldav, 'calendar-data', 'é<&'));
      }
    }
    const pieces = await collect(xmlChunks(dav('multistatus'), responses()));
    expect(pieces.length).toBeGreaterThan(5);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(17 * 1024);
    const root = parse(pieces.join(''));
    const hrefs = Array.from(root?.getElementsByTagNameNS(NS.dav, 'href') ?? []);
    expect(hrefs.map((href) => href.textContent)).toEqual(
      Array.from({ length: 2000 }, (_, i) => `/dav/${i}.ics`),
    );
    expect(root?.getElementsByTagNameNS(NS.caldav, 'calendar-data')[1999]?.textContent).toBe('é<&');
  });

  it('writes a client’s namespace named like an object’s own property as any other', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    const root = parse(buildXml(dav('prop', ...names.map((ns) => el(ns, 'a')))));
    for (const ns of names) expect(root?.getElementsByTagNameNS(ns, 'a')).toHaveLength(1);
  });

  it('writes many names, and attributes, in the namespaces Tally speaks', () => {
    const many = Array.from({ length: 600 }, (_, i) => el(NS.dav, `p${i}`, String(i)));
    const root = parse(
      buildXml(
        dav(
          'prop',
          ...many,
          { ns: NS.caldav, name: 'comp', attributes: { name: 'VTODO' } },
          el(NS.caldav, 'comp'),
        ),
      ),
    );
    expect(root?.getElementsByTagNameNS(NS.dav, 'p599')[0]?.textContent).toBe('599');
    expect(root?.getElementsByTagNameNS(NS.dav, 'p0')[0]?.textContent).toBe('0');
    const comps = Array.from(root?.getElementsByTagNameNS(NS.caldav, 'comp') ?? []);
    expect(comps.map((comp) => comp.getAttribute('name'))).toEqual(['VTODO', null]);
  });
});
