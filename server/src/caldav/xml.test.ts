import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { buildXml, dav, el, escapeAttribute, escapeText, NS } from './xml.js';

const parse = (text: string) => new DOMParser().parseFromString(text, 'text/xml').documentElement;

describe('the XML writer', () => {
  it('escapes what would be markup in text and attributes', () => {
    expect(escapeText('a < b && c > d ]]>')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt;');
    expect(escapeAttribute('say "hi"\t<&>\r\n')).toBe(
      'say &quot;hi&quot;&#9;&lt;&amp;&gt;&#13;&#10;',
    );
  });

  it('writes an answer a namespace-aware parser reads back exactly', () => {
    const title = 'Buy <milk> & "eggs" ]]> \u00e9\u{1F95A}\nsecond line';
    const text = buildXml(dav('multistatus'), [
      dav('response', dav('href', '/dav/a&b.ics'), el(NS.caldav, 'calendar-data', title)),
      el('http://example.com/x', 'unknown-prop'),
      { ns: NS.caldav, name: 'comp', attributes: { name: 'V"TODO' } },
    ]);
    expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
    const root = parse(text);
    expect(root?.namespaceURI).toBe(NS.dav);
    expect(root?.localName).toBe('multistatus');
    expect(root?.getElementsByTagNameNS(NS.dav, 'href')[0]?.textContent).toBe('/dav/a&b.ics');
    expect(root?.getElementsByTagNameNS(NS.caldav, 'calendar-data')[0]?.textContent).toBe(title);
    expect(root?.getElementsByTagNameNS('http://example.com/x', 'unknown-prop')).toHaveLength(1);
    expect(root?.getElementsByTagNameNS(NS.caldav, 'comp')[0]?.getAttribute('name')).toBe('V"TODO');
  });

  it('writes the extra children after the root’s own, in order', () => {
    const root = parse(
      buildXml(dav('multistatus', dav('response')), [dav('sync-token', 'urn:tally:sync:3')]),
    );
    const names = Array.from(root?.childNodes ?? []).map((node) => node.localName);
    expect(names).toEqual(['response', 'sync-token']);
  });
});
