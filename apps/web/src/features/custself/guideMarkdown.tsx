// A small renderer for the user guide's markdown (docs/guide/<lang>.md): headings, paragraphs, bullet lists,
// images, **bold** and `code`. It builds React elements (no HTML strings), so the text cannot inject markup.
import { Typography } from 'antd';
import type { ReactNode } from 'react';

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(
      m[1] !== undefined ? (
        <strong key={`${key}-${m.index}`}>{m[1]}</strong>
      ) : (
        <code key={`${key}-${m.index}`}>{m[2]}</code>
      ),
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Renders the guide; image paths (img/x.png) are mapped to bundled URLs by `image`. */
export function renderGuide(markdown: string, image: (path: string) => string | undefined): ReactNode[] {
  const blocks = markdown.replace(/\r\n/g, '\n').split(/\n\s*\n/);
  return blocks.map((block, i) => {
    const key = `b${i}`;
    const heading = /^(#{1,3}) (.*)$/.exec(block.trim());
    if (heading) {
      const level = heading[1].length as 1 | 2 | 3;
      return (
        <Typography.Title key={key} level={(level + 1) as 2 | 3 | 4} id={heading[2]}>
          {heading[2]}
        </Typography.Title>
      );
    }
    const img = /^!\[([^\]]*)\]\(([^)]+)\)$/.exec(block.trim());
    if (img) {
      const src = image(img[2]);
      return src ? (
        <figure key={key} style={{ margin: '8px 0 16px' }}>
          <img src={src} alt={img[1]} style={{ maxWidth: '100%', border: '1px solid #eee' }} />
          <figcaption style={{ color: '#888', fontSize: 12 }}>{img[1]}</figcaption>
        </figure>
      ) : null;
    }
    const lines = block.split('\n');
    if (lines[0].startsWith('- ')) {
      // List items may wrap onto indented continuation lines.
      const items: string[] = [];
      for (const l of lines) {
        if (l.startsWith('- ')) items.push(l.slice(2));
        else items[items.length - 1] += ` ${l.trim()}`;
      }
      return (
        <ul key={key}>
          {items.map((it) => (
            <li key={`${key}-${it}`}>{inline(it, `${key}-${it.slice(0, 20)}`)}</li>
          ))}
        </ul>
      );
    }
    return <Typography.Paragraph key={key}>{inline(lines.map((l) => l.trim()).join(' '), key)}</Typography.Paragraph>;
  });
}
