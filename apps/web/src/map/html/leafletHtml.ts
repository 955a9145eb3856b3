// The one escaper between Carhere and Leaflet. Leaflet puts strings into the page as HTML (tooltips, popups,
// div icons), so nothing may hand it a plain string: map code builds a LeafletContent here — text() for any
// value (escaped, shown as text), html`…` for fixed markup whose every ${value} is escaped, element() for DOM
// built by React or the DOM API — and the guard (leafletGuard.ts) turns it into what Leaflet takes. A plain
// string that reaches Leaflet another way is reported and shown as text (see guardLeaflet). Pure: no DOM, no
// Leaflet import, so the rules are unit-tested in Node.

const BRAND: unique symbol = Symbol('carhere.leafletContent');

/** Content that may be given to Leaflet: escaped HTML made by this module, or a DOM element. */
export interface LeafletContent {
  readonly [BRAND]: { readonly html: string } | { readonly element: object };
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** HTML-escapes text for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function brand(value: { html: string } | { element: object }): LeafletContent {
  return Object.freeze({ [BRAND]: Object.freeze(value) }) as LeafletContent;
}

/** Any value shown as text: names, plates, addresses, translated labels. */
export function text(value: string | number): LeafletContent {
  return brand({ html: escapeHtml(String(value)) });
}

/** Fixed markup; every interpolated value is escaped unless it is itself LeafletContent made here. */
export function html(
  strings: TemplateStringsArray,
  ...values: readonly (string | number | LeafletContent)[]
): LeafletContent {
  let out = strings[0];
  values.forEach((v, i) => {
    out += (isLeafletContent(v) ? htmlOf(v) : escapeHtml(String(v))) + strings[i + 1];
  });
  return brand({ html: out });
}

/** A DOM element (e.g. a React portal's container): Leaflet appends it, never parses it. */
export function element(node: object): LeafletContent {
  return brand({ element: node });
}

export function isLeafletContent(value: unknown): value is LeafletContent {
  return typeof value === 'object' && value !== null && BRAND in value;
}

/** The HTML of content made by text() or html`…` (an element's content has none: ''). */
export function htmlOf(content: LeafletContent): string {
  const inner = content[BRAND];
  return 'html' in inner ? inner.html : '';
}

/** What Leaflet receives: the escaped HTML string, or the element. */
export function toLeaflet(content: LeafletContent): string | object {
  const inner = content[BRAND];
  return 'html' in inner ? inner.html : inner.element;
}

// ---- The guard: installed on Leaflet's prototypes by leafletGuard.ts, tested with stand-in classes. ----

/** The parts of Leaflet the guard wraps: every overlay's content goes through DivOverlay#_updateContent
 * (bindTooltip, bindPopup, setContent, setTooltipContent, options.content), every div icon through
 * DivIcon#createIcon. */
export interface GuardableLeaflet {
  DivOverlay: { prototype: object };
  DivIcon: { prototype: object };
}

type Report = (api: string, value: string) => void;

interface OverlayInternals {
  _content?: unknown;
  _updateContent(): unknown;
}
interface DivIconInternals {
  options: { html?: unknown };
  createIcon(old?: unknown): unknown;
}

const GUARDED = Symbol.for('carhere.leafletGuarded');

function isDomNode(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { nodeType?: unknown }).nodeType === 'number';
}

/**
 * Wraps Leaflet so that only LeafletContent (or DOM nodes) reach its innerHTML. A plain string is reported
 * (`report`) and shown as escaped text, so a bypass can never run script: at worst a label shows markup.
 */
export function guardLeaflet(L: GuardableLeaflet, report: Report): void {
  const overlay = L.DivOverlay.prototype as OverlayInternals & { [GUARDED]?: true };
  const icon = L.DivIcon.prototype as DivIconInternals & { [GUARDED]?: true };
  if (overlay[GUARDED]) return;

  const native = (api: string, value: unknown): unknown => {
    if (isLeafletContent(value)) return toLeaflet(value);
    if (typeof value === 'string') {
      if (value === '') return value;
      report(api, value);
      return escapeHtml(value);
    }
    return value;
  };
  const checkedFunctions = new WeakSet<object>();

  const updateContent = overlay._updateContent;
  overlay._updateContent = function (this: OverlayInternals) {
    const content = this._content;
    if (typeof content === 'function') {
      if (!checkedFunctions.has(content)) {
        const fn = content as (source: unknown) => unknown;
        const checked = (source: unknown) => native('overlay content function', fn(source));
        checkedFunctions.add(checked);
        this._content = checked;
      }
      return updateContent.call(this);
    }
    // Leaflet reads the content again on every update (a tooltip opened twice): hand it the native form for this
    // call only and keep our marked value, so the second update does not see a plain string.
    this._content = native('bindTooltip/bindPopup/setContent', content);
    try {
      return updateContent.call(this);
    } finally {
      this._content = content;
    }
  };
  overlay[GUARDED] = true;

  const trusted = new WeakSet<object>();
  const createIcon = icon.createIcon;
  icon.createIcon = function (this: DivIconInternals, old?: unknown) {
    const value = this.options.html;
    if (isLeafletContent(value)) {
      this.options.html = toLeaflet(value);
      trusted.add(this);
    } else if (typeof value === 'string' && !trusted.has(this) && value !== '') {
      report('divIcon({html})', value);
      this.options.html = escapeHtml(value);
      trusted.add(this);
    } else if (value !== undefined && value !== false && typeof value !== 'string' && !isDomNode(value)) {
      this.options.html = '';
    }
    return createIcon.call(this, old);
  };
  icon[GUARDED] = true;
}
