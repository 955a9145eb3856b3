// The escaper's rules, its guard on Leaflet-shaped prototypes, and a scan of the web app's source: every
// string that Leaflet would parse as HTML must be made by leafletHtml.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { element, escapeHtml, guardLeaflet, html, htmlOf, isLeafletContent, text, toLeaflet } from './leafletHtml.ts';

const PAYLOAD = `<img src=x onerror=window.__xss=1>"'><script>alert(1)</script>\``;

describe('the escaper', () => {
  it('escapes every character that opens markup or ends an attribute', () => {
    expect(escapeHtml(PAYLOAD)).not.toMatch(/[<>"'`]/);
    expect(escapeHtml('a & b')).toBe('a &amp; b');
    expect(htmlOf(text(PAYLOAD))).toBe(escapeHtml(PAYLOAD));
    expect(htmlOf(text(42))).toBe('42');
  });

  it('html`…` escapes interpolations but keeps nested content made here', () => {
    const inner = html`<b>${PAYLOAD}</b>`;
    const outer = html`<div title="${PAYLOAD}">${inner}${'<i>'}</div>`;
    expect(htmlOf(outer)).toBe(`<div title="${escapeHtml(PAYLOAD)}"><b>${escapeHtml(PAYLOAD)}</b>&lt;i&gt;</div>`);
  });

  it('content is recognisable only when made here', () => {
    expect(isLeafletContent(text('x'))).toBe(true);
    expect(isLeafletContent('x')).toBe(false);
    expect(isLeafletContent({ html: 'x' })).toBe(false);
    const node = { nodeType: 1 };
    expect(toLeaflet(element(node))).toBe(node);
  });
});

/** Stand-ins with the shape of Leaflet 1.9's DivOverlay and DivIcon: innerHTML is where HTML is parsed. */
function fakeLeaflet() {
  const written: unknown[] = [];
  class DivOverlay {
    _content: unknown;
    _source = 'layer';
    setContent(content: unknown) {
      this._content = content;
      this._updateContent();
      return this;
    }
    _updateContent() {
      const content = typeof this._content === 'function' ? this._content(this._source) : this._content;
      written.push(content);
    }
  }
  class DivIcon {
    constructor(public options: { html?: unknown }) {}
    createIcon() {
      written.push(this.options.html);
      return {};
    }
  }
  return { L: { DivOverlay, DivIcon }, written };
}

describe('the guard on Leaflet', () => {
  it('passes content made by the escaper, reports and escapes any plain string', () => {
    const { L, written } = fakeLeaflet();
    const reports: string[] = [];
    guardLeaflet(L, (api) => reports.push(api));
    new L.DivOverlay().setContent(text(PAYLOAD));
    new L.DivOverlay().setContent(() => text('fn'));
    new L.DivIcon({ html: html`<span>${PAYLOAD}</span>` }).createIcon();
    expect(reports).toEqual([]);
    expect(written).toEqual([escapeHtml(PAYLOAD), 'fn', `<span>${escapeHtml(PAYLOAD)}</span>`]);

    written.length = 0;
    new L.DivOverlay().setContent(PAYLOAD);
    new L.DivOverlay().setContent(() => PAYLOAD);
    new L.DivIcon({ html: PAYLOAD }).createIcon();
    expect(reports).toEqual(['bindTooltip/bindPopup/setContent', 'overlay content function', 'divIcon({html})']);
    expect(written).toEqual([escapeHtml(PAYLOAD), escapeHtml(PAYLOAD), escapeHtml(PAYLOAD)]);
  });

  it('an icon made by the escaper stays trusted when Leaflet creates it again', () => {
    const { L } = fakeLeaflet();
    const reports: string[] = [];
    guardLeaflet(L, (api) => reports.push(api));
    const icon = new L.DivIcon({ html: html`<b>x</b>` });
    icon.createIcon();
    icon.createIcon();
    expect(reports).toEqual([]);
  });
});

// ---- Source scan ----

const SRC = join(import.meta.dirname, '..', '..');
const ESCAPER = 'map/html/leafletHtml.ts';
const GUARD = 'map/html/leafletGuard.ts';
const OVERLAY_CALLS = new Set(['bindTooltip', 'bindPopup', 'setContent', 'setTooltipContent', 'setPopupContent']);
const ESCAPER_CALLS = new Set(['text', 'element']);
const RAW_SINKS =
  /\b(innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|createContextualFragment|document\.write)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Names under which a file imports the escaper's text / element / html. */
function escaperImports(file: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    if (!s.moduleSpecifier.text.endsWith('/leafletHtml.ts') && s.moduleSpecifier.text !== './leafletHtml.ts') continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const el of bindings.elements) names.set(el.name.text, (el.propertyName ?? el.name).text);
  }
  return names;
}

/** Every place in `source` where Leaflet could receive HTML that did not come through the escaper. */
function leafletBypasses(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const imported = escaperImports(file);
  const found: string[] = [];
  const where = (node: ts.Node) => `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const escaped = (arg: ts.Expression | undefined): boolean => {
    if (!arg) return false;
    if (ts.isCallExpression(arg) && ts.isIdentifier(arg.expression))
      return ESCAPER_CALLS.has(imported.get(arg.expression.text) ?? '');
    if (ts.isTaggedTemplateExpression(arg) && ts.isIdentifier(arg.tag)) return imported.get(arg.tag.text) === 'html';
    return false;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const target = ts.isPropertyAccessExpression(callee) ? callee.expression.getText(file) : '';
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(callee) && OVERLAY_CALLS.has(name)) {
        if (!escaped(node.arguments?.[0])) found.push(`${where(node)} ${name}(${node.arguments?.[0]?.getText(file)})`);
      }
      // Leaflet's own div icons and overlays with a content option: only through leafletGuard.ts.
      if (
        (name === 'divIcon' || name === 'DivIcon' || name === 'tooltip' || name === 'popup') &&
        (target === 'L' || name === 'DivIcon') &&
        !path.endsWith(GUARD)
      ) {
        const opts = node.arguments?.[0];
        const hasContent =
          opts &&
          ts.isObjectLiteralExpression(opts) &&
          opts.properties.some((p) => p.name && ['html', 'content'].includes(p.name.getText(file)));
        if (name === 'divIcon' || name === 'DivIcon' || hasContent) found.push(`${where(node)} L.${name}(…)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!path.endsWith(ESCAPER)) {
    source.split('\n').forEach((line, i) => {
      if (RAW_SINKS.test(line) && !line.trim().startsWith('//')) found.push(`${path}:${i + 1} ${line.trim()}`);
    });
  }
  return found;
}

describe('no HTML reaches Leaflet or the DOM except through the escaper', () => {
  it('the scan finds plain strings, raw div icons and raw HTML sinks', () => {
    const bad = `import L from 'leaflet';
import { text as t2, html } from '../html/leafletHtml.ts';
marker.bindTooltip(device.name);
marker.bindPopup(\`<b>\${name}</b>\`);
popup.setContent(html\`<b>\${name}</b>\`);
layer.bindTooltip(t2(name));
layer.bindTooltip(escapeHtml(name));
L.divIcon({ html: name });
new L.DivIcon({ html: name });
L.popup({ content: name });
el.innerHTML = name;
const x = <div dangerouslySetInnerHTML={{ __html: name }} />;`;
    expect(leafletBypasses('bad.tsx', bad).map((f) => f.split(' ')[0])).toEqual([
      'bad.tsx:3',
      'bad.tsx:4',
      'bad.tsx:7',
      'bad.tsx:8',
      'bad.tsx:9',
      'bad.tsx:10',
      'bad.tsx:11',
      'bad.tsx:12',
    ]);
  });

  it('apps/web/src has none', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => leafletBypasses(relative(SRC, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
