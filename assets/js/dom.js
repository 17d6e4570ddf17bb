/** The links page's small DOM and value helpers: content is only ever set as text. */

const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'];
export const WEB_PROTOCOLS = ['http:', 'https:'];

/* ---------- Small DOM and value helpers ---------- */

/** Creates an element; `text` becomes its text content, other props become attributes. */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/** A non-empty string from the content file, or null: the page never trusts a value's type. */
export function str(value) {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The address to use for `raw`, or null when its scheme is not allowed. The browser's own URL parser
 * decides the scheme, so tricks such as tabs or upper case inside "javascript:" are seen through.
 */
export function safeUrl(raw, protocols = LINK_PROTOCOLS) {
  if (!str(raw)) return null;
  try {
    const url = new URL(raw, document.baseURI);
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** A link to `raw` when it is safe, otherwise the same content without a link. */
export function linkOrText(raw, props, ...children) {
  const href = safeUrl(raw);
  return href ? h('a', { ...props, href }, ...children) : h('span', props, ...children);
}

export function image(raw, { alt = '', width, height, className, eager = false }) {
  const src = safeUrl(raw, WEB_PROTOCOLS);
  if (!src) return null;
  return h('img', {
    class: className,
    src,
    alt,
    width,
    height,
    loading: eager ? 'eager' : 'lazy',
    decoding: 'async',
    referrerpolicy: 'no-referrer',
  });
}

export function hostOf(href) {
  try {
    return new URL(href).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** YYYY, YYYY-MM and YYYY-MM-DD become a <time>; any other text is shown as written. */
export function renderDate(value) {
  const text = str(value);
  if (!text) return null;
  const match = ISO_DATE.exec(text);
  if (!match) return h('span', { class: 'card__date', text });
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month ?? 1) - 1, Number(day ?? 1)));
  const valid = date.getUTCMonth() === Number(month ?? 1) - 1 && date.getUTCDate() === Number(day ?? 1);
  if (!valid) return h('span', { class: 'card__date', text });
  const options = { timeZone: 'UTC', year: 'numeric' };
  if (month) options.month = 'short';
  if (day) options.day = 'numeric';
  const label = new Intl.DateTimeFormat(document.documentElement.lang || undefined, options).format(date);
  return h('time', { class: 'card__date', datetime: text, text: label });
}

export function renderDescription(value) {
  const text = str(value);
  return text ? h('p', { class: 'card__desc', text }) : null;
}

/** A heading whose link (when there is one) covers the whole tile, see `.card__title a::after`. */
export function renderTitle(title, url) {
  const text = str(title);
  if (!text) return null;
  const href = safeUrl(url);
  return h('h3', { class: 'card__title' }, href ? h('a', { href, text }) : text);
}
