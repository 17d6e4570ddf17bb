/**
 * Links page: reads data/links.json (described by data/links.schema.json) and builds the page.
 *
 * Safety rules that hold everywhere below: content is only ever set as text (never parsed as HTML),
 * and only web, mail and relative addresses become links or image sources.
 */

const DATA_URL = 'data/links.json';
const TEMPLATES = ['editorial', 'swiss', 'cosmos'];
const DEFAULT_TEMPLATE = 'editorial';
const DEFAULT_RATIO = { width: 5, height: 2 };
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const VIDEO_EMBED = 'https://www.youtube-nocookie.com/embed/';
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'];
const WEB_PROTOCOLS = ['http:', 'https:'];
const MIN_TEXT_CONTRAST = 4.5;
const SVG_NS = 'http://www.w3.org/2000/svg';

/* ---------- Icons: 24×24 line drawings in currentColor. A {fill} entry is a solid shape. ---------- */

const circle = (cx, cy, r) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
const dot = (x, y) => `M${x} ${y}h.01`;

const ICONS = {
  github: [
    circle(12, 12, 9.5),
    'M8.6 9.6 8.2 6.4l2.3 1.4a5.4 5.4 0 0 1 3 0l2.3-1.4-.4 3.2a3.8 3.8 0 0 1 .6 2.1c0 2.3-1.6 3.5-4 3.5s-4-1.2-4-3.5a3.8 3.8 0 0 1 .6-2.1z',
    'M10.6 15.2v6M13.4 15.2v6',
  ],
  gitlab: ['M12 20.5 3.2 14l2-9.5 3 6.8h7.6l3-6.8 2 9.5z'],
  codeberg: ['M12 3.5 2.8 20h18.4z', 'M12 3.5 9.6 20'],
  bitbucket: ['M3.2 4.5h17.6l-2.6 15H5.8z', 'M9.4 10.2h5.2l-.6 4.3h-4z'],
  git: [
    'M12 2.6 21.4 12 12 21.4 2.6 12z',
    circle(10, 8.6, 1.2),
    circle(10, 15.4, 1.2),
    circle(14.6, 12, 1.2),
    'M10 9.8v4.4M10.9 9.4l2.7 1.8',
  ],
  mastodon: [
    'M4 7.5A3.5 3.5 0 0 1 7.5 4h9A3.5 3.5 0 0 1 20 7.5v5.5a4 4 0 0 1-4 4h-5.5c0 1.8 1.5 3 4.5 3',
    'M8.4 13V9.8a1.6 1.6 0 0 1 3.2 0V12m0 0V9.8a1.6 1.6 0 0 1 3.2 0V13',
  ],
  bluesky: [
    'M12 11C10 7 6.5 4 4 4c-1.5 0-1.5 2-1.2 4 .5 3 2.5 4 5.2 4-3 .6-4 2.5-2.5 4.5 1.5 2 4 1.5 6.5-4.5 2.5 6 5 6.5 6.5 4.5s.5-3.9-2.5-4.5c2.7 0 4.7-1 5.2-4 .3-2 .3-4-1.2-4-2.5 0-6 3-8 7z',
  ],
  linkedin: [
    'M6 3.5h12A2.5 2.5 0 0 1 20.5 6v12a2.5 2.5 0 0 1-2.5 2.5H6A2.5 2.5 0 0 1 3.5 18V6A2.5 2.5 0 0 1 6 3.5z',
    'M8 10.5V17',
    dot(8, 7.5),
    'M12 17v-6.5M12 13.5a2.5 2.5 0 0 1 5 0V17',
  ],
  x: ['M4.5 4h4l11 16h-4z', 'M19.5 4l-6.3 7.2M10.8 12.8 4.5 20'],
  youtube: [
    'M3 8.5A3.5 3.5 0 0 1 6.5 5h11A3.5 3.5 0 0 1 21 8.5v7a3.5 3.5 0 0 1-3.5 3.5h-11A3.5 3.5 0 0 1 3 15.5z',
    'M10.2 9.3v5.4l4.6-2.7z',
  ],
  instagram: [
    'M7.5 3.5h9a4 4 0 0 1 4 4v9a4 4 0 0 1-4 4h-9a4 4 0 0 1-4-4v-9a4 4 0 0 1 4-4z',
    circle(12, 12, 3.8),
    dot(17, 7),
  ],
  facebook: [circle(12, 12, 9), 'M15 7.5h-1.5a2 2 0 0 0-2 2V21M9 13h5.5'],
  matrix: [
    'M6.5 4H4v16h2.5M17.5 4H20v16h-2.5',
    'M8.5 15v-5M8.5 11.5a1.75 1.75 0 0 1 3.5 0V15M12 11.5a1.75 1.75 0 0 1 3.5 0V15',
  ],
  email: ['M3.5 5.5h17v13h-17z', 'M3.5 6 12 13l8.5-7'],
  rss: [dot(5.5, 18.5), 'M4.5 11a8.5 8.5 0 0 1 8.5 8.5', 'M4.5 4.5a15 15 0 0 1 15 15'],
  website: [
    circle(12, 12, 9),
    'M3 12h18',
    'M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z',
  ],
  link: [
    'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1',
    'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  ],
  pin: ['M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z', circle(12, 10, 2.3)],
  pencil: ['M4 20h4L19 9l-4-4L4 16z', 'M13.5 6.5l4 4'],
  play: [{ fill: 'M8.5 5.8v12.4L18.5 12z' }],
};

/** Other spellings authors use for the same network. */
const ICON_ALIASES = {
  twitter: 'x',
  mail: 'email',
  web: 'website',
  site: 'website',
  homepage: 'website',
  feed: 'rss',
};

/** Hosts whose social pill gets that network's icon when the entry names no icon. */
const HOST_ICONS = {
  'github.com': 'github',
  'gitlab.com': 'gitlab',
  'codeberg.org': 'codeberg',
  'bitbucket.org': 'bitbucket',
  'bsky.app': 'bluesky',
  'linkedin.com': 'linkedin',
  'x.com': 'x',
  'twitter.com': 'x',
  'youtube.com': 'youtube',
  'instagram.com': 'instagram',
  'facebook.com': 'facebook',
  'matrix.to': 'matrix',
};

/** Public git hosts with their own icon; any other repository host is shown as generic git. */
const GIT_HOSTS = {
  'github.com': { icon: 'github', name: 'GitHub' },
  'gitlab.com': { icon: 'gitlab', name: 'GitLab' },
  'codeberg.org': { icon: 'codeberg', name: 'Codeberg' },
  'bitbucket.org': { icon: 'bitbucket', name: 'Bitbucket' },
};

function icon(name, className = 'icon') {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', className);
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '24');
  svg.setAttribute('height', '24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.dataset.icon = name;
  for (const shape of ICONS[name] ?? ICONS.link) {
    const path = document.createElementNS(SVG_NS, 'path');
    if (typeof shape === 'string') {
      path.setAttribute('d', shape);
      path.setAttribute('class', 'icon__line');
    } else {
      path.setAttribute('d', shape.fill);
      path.setAttribute('class', 'icon__fill');
    }
    svg.append(path);
  }
  return svg;
}

/* ---------- Small DOM and value helpers ---------- */

/** Creates an element; `text` becomes its text content, other props become attributes. */
function h(tag, props = {}, ...children) {
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
function str(value) {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The address to use for `raw`, or null when its scheme is not allowed. The browser's own URL parser
 * decides the scheme, so tricks such as tabs or upper case inside "javascript:" are seen through.
 */
function safeUrl(raw, protocols = LINK_PROTOCOLS) {
  if (!str(raw)) return null;
  try {
    const url = new URL(raw, document.baseURI);
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** A link to `raw` when it is safe, otherwise the same content without a link. */
function linkOrText(raw, props, ...children) {
  const href = safeUrl(raw);
  return href ? h('a', { ...props, href }, ...children) : h('span', props, ...children);
}

function image(raw, { alt = '', width, height, className, eager = false }) {
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

function hostOf(href) {
  try {
    return new URL(href).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** YYYY, YYYY-MM and YYYY-MM-DD become a <time>; any other text is shown as written. */
function renderDate(value) {
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

function renderDescription(value) {
  const text = str(value);
  return text ? h('p', { class: 'card__desc', text }) : null;
}

/** A heading whose link (when there is one) covers the whole tile, see `.card__title a::after`. */
function renderTitle(title, url) {
  const text = str(title);
  if (!text) return null;
  const href = safeUrl(url);
  return h('h3', { class: 'card__title' }, href ? h('a', { href, text }) : text);
}

/* ---------- Theme: template choice and a readable accent ---------- */

function chooseTemplate(theme) {
  const requested = new URLSearchParams(window.location.search).get('template');
  if (TEMPLATES.includes(requested)) return requested;
  return TEMPLATES.includes(theme?.template) ? theme.template : DEFAULT_TEMPLATE;
}

/** Any opaque CSS color as [r, g, b]; the canvas does the parsing so every CSS syntax works. */
function parseColor(value) {
  if (!str(value) || !CSS.supports('color', value)) return null;
  const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  context.fillStyle = value;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, alpha] = context.getImageData(0, 0, 1, 1).data;
  return alpha === 255 ? [r, g, b] : null;
}

function luminance([r, g, b]) {
  const linear = (channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

function mix(from, to, amount) {
  return from.map((channel, i) => Math.round(channel + (to[i] - channel) * amount));
}

const toCss = ([r, g, b]) => `rgb(${r} ${g} ${b})`;

/** `color` moved toward `ink` in 5% steps, just far enough to read at 4.5:1 on every background. */
function readableAccent(color, ink, backgrounds) {
  for (let step = 0; step <= 20; step += 1) {
    const candidate = mix(color, ink, step / 20);
    if (backgrounds.every((background) => contrast(candidate, background) >= MIN_TEXT_CONTRAST))
      return candidate;
  }
  return ink;
}

/**
 * Sets the accent custom properties for the current template and color scheme:
 * --accent fills surfaces, --on-accent is the text on that fill (black or white, whichever reads
 * better), and --accent-text is the accent moved toward the text color just enough to keep 4.5:1
 * on every background of the template.
 */
function applyAccent(accent) {
  const root = document.documentElement;
  const tokens = getComputedStyle(root);
  const token = (name) => parseColor(tokens.getPropertyValue(name).trim());
  const base = parseColor(accent) ?? token('--accent-default');
  const ink = token('--ink');
  const backgrounds = ['--bg', '--surface', '--surface-2'].map(token).filter(Boolean);
  if (!base || !ink) return;

  const text = readableAccent(base, ink, backgrounds);
  const onAccent = contrast(base, [255, 255, 255]) >= contrast(base, [0, 0, 0]) ? [255, 255, 255] : [0, 0, 0];

  root.style.setProperty('--accent', toCss(base));
  root.style.setProperty('--on-accent', toCss(onAccent));
  root.style.setProperty('--accent-text', toCss(text));
}

function applyTheme(theme) {
  document.documentElement.dataset.template = chooseTemplate(theme);
  const accent = str(theme?.accent);
  applyAccent(accent);
  // The backgrounds differ between light and dark, so the readable accent is worked out again.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyAccent(accent));
}

/* ---------- Hero and social pills ---------- */

function socialIconKey(entry) {
  const key = str(entry.icon)?.toLowerCase();
  if (key) {
    const known = ICON_ALIASES[key] ?? key;
    return Object.hasOwn(ICONS, known) ? known : 'link';
  }
  const href = safeUrl(entry.url);
  if (href?.startsWith('mailto:')) return 'email';
  return HOST_ICONS[hostOf(href)] ?? 'link';
}

function renderSocial(social) {
  const entries = (Array.isArray(social) ? social : []).filter((entry) => str(entry?.label));
  if (entries.length === 0) return null;
  const list = h('ul', { class: 'social__list', role: 'list' });
  for (const entry of entries) {
    const key = socialIconKey(entry);
    // rel="me" lets sites such as Mastodon verify that this page and the profile belong together.
    const pill = linkOrText(
      entry.url,
      { class: 'pill', rel: 'me', 'data-icon': key },
      icon(key),
      entry.label,
    );
    list.append(h('li', {}, pill));
  }
  return h('nav', { class: 'social', 'aria-label': 'Elsewhere on the web' }, list);
}

/**
 * The name as text, each hyphenated word kept whole ("Adeyemi-Hart" never breaks into
 * "Adeyemi-" / "Hart"): a line may break only between words. The text itself is unchanged.
 */
function nameWords(name) {
  return String(name)
    .split(/(\s+)/)
    .filter(Boolean)
    .map((part) => (part.includes('-') ? h('span', { class: 'nowrap', text: part }) : part));
}

function renderHero(profile, social) {
  const hero = document.getElementById('hero');
  const location = str(profile.location);
  hero.replaceChildren(
    image(profile.avatar, { className: 'hero__avatar', width: 160, height: 160, eager: true }),
    h(
      'div',
      { class: 'hero__text' },
      h('h1', { class: 'hero__name' }, ...nameWords(profile.name)),
      str(profile.handle) && h('p', { class: 'hero__handle', text: profile.handle }),
      str(profile.tagline) && h('p', { class: 'hero__tagline', text: profile.tagline }),
      str(profile.bio) && h('p', { class: 'hero__bio', text: profile.bio }),
      location &&
        h(
          'p',
          { class: 'hero__location' },
          icon('pin'),
          h('span', { class: 'visually-hidden', text: 'Location: ' }),
          location,
        ),
      renderSocial(social),
    ),
  );
  hero.hidden = false;
  document.title = `${profile.name} · Links`;
}

/* ---------- Items: one function per kind ---------- */

/** A link's icon address: its own image, else its site's icon; null for mail and unusable addresses. */
function linkIconUrl(item) {
  const own = str(item.image) ?? str(item.icon);
  if (own) return own;
  const href = safeUrl(item.url, WEB_PROTOCOLS);
  if (!href) return null;
  const { origin } = new URL(href);
  // Links within this site use its declared icon; other sites are asked for the conventional one.
  return origin === window.location.origin
    ? document.querySelector('link[rel~="icon"]')?.href
    : `${origin}/favicon.ico`;
}

/** The link tile's icon, or a neutral glyph when there is none or it fails to load. */
function renderLinkIcon(item) {
  const glyph = () => icon(safeUrl(item.url)?.startsWith('mailto:') ? 'email' : 'website');
  const img = image(linkIconUrl(item), { width: 32, height: 32 });
  img?.addEventListener('error', () => img.replaceWith(glyph()), { once: true });
  return h('span', { class: 'tile__icon' }, img ?? glyph());
}

/** A grid tile; `wide` spans 8 of 12 columns, `filled` adds the accent fill of featured items. */
function tile(kind, { wide = false, filled = false } = {}, ...children) {
  const classes = ['tile', `tile--${kind}`];
  if (wide) classes.push('span-wide');
  if (filled) classes.push('tile--featured');
  return h('li', { class: classes.join(' '), 'data-kind': kind }, ...children);
}

function renderLink(item) {
  const featured = item.featured === true;
  return tile(
    'link',
    { wide: featured, filled: featured },
    renderLinkIcon(item),
    renderTitle(item.title, item.url),
    renderDescription(item.description),
    renderDate(item.date),
  );
}

function renderRepoLink(raw, title) {
  const href = safeUrl(raw, WEB_PROTOCOLS);
  if (!href) return null;
  const host = hostOf(href);
  const known = GIT_HOSTS[host];
  const label = `Source code of ${title} on ${known ? known.name : host}`;
  return h(
    'a',
    { class: 'card__repo', href, 'aria-label': label, title: label, 'data-host': known ? known.icon : 'git' },
    icon(known ? known.icon : 'git'),
  );
}

function renderTags(tags) {
  const list = (Array.isArray(tags) ? tags : []).filter(str);
  if (list.length === 0) return null;
  return h(
    'ul',
    { class: 'card__tags', role: 'list', 'aria-label': 'Tags' },
    ...list.map((tag) => h('li', { text: tag })),
  );
}

function renderCard(item) {
  const featured = item.featured === true;
  return tile(
    'card',
    { wide: featured, filled: featured },
    renderTitle(item.title, item.url),
    renderRepoLink(item.repo, str(item.title) ?? 'this project'),
    renderDescription(item.description),
    renderTags(item.tags),
    renderDate(item.date),
  );
}

/** Swaps the placeholder for the player. Until this runs, nothing is requested from the video host. */
function playVideo(frame, id, title) {
  const player = h('iframe', {
    class: 'video__player',
    src: `${VIDEO_EMBED}${encodeURIComponent(id)}?autoplay=1`,
    title,
    width: 560,
    height: 315,
    allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen',
    allowfullscreen: true,
    referrerpolicy: 'strict-origin-when-cross-origin',
  });
  frame.replaceChildren(player);
  player.focus();
}

function renderVideo(item) {
  const title = str(item.title) ?? 'Video';
  const frame = h('div', { class: 'video__frame' });
  if (VIDEO_ID.test(item.id ?? '')) {
    // The name starts with the visible words, so voice control users can say what they see.
    const button = h(
      'button',
      { class: 'video__play', type: 'button', 'aria-label': `Play video: ${title}` },
      icon('play', 'icon video__play-icon'),
      h('span', { class: 'video__play-label', text: 'Play video' }),
      // The placeholder names what will play, so it is never a blank box.
      h('span', { class: 'video__play-title', 'aria-hidden': 'true', text: title }),
    );
    button.addEventListener('click', () => playVideo(frame, item.id, title), { once: true });
    frame.append(button);
  } else {
    frame.append(h('p', { class: 'video__unavailable', text: 'This video cannot be shown.' }));
  }
  return tile(
    'video',
    { wide: item.featured === true },
    frame,
    h(
      'div',
      { class: 'tile__body' },
      h('h3', { class: 'card__title', text: title }),
      h('p', { class: 'card__desc video__note', text: 'Plays from YouTube once you press play.' }),
      renderDate(item.date),
    ),
  );
}

function parseRatio(value) {
  const match = /^(\d+):(\d+)$/.exec(str(value) ?? '');
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  return width > 0 && height > 0 ? { width, height } : DEFAULT_RATIO;
}

function renderPortfolio(item) {
  const ratio = parseRatio(item.ratio);
  const title = str(item.title);
  // The width/height attributes reserve the right space before the image arrives.
  const img = image(item.image, {
    className: 'portfolio__image',
    alt: title ?? str(item.description) ?? 'Portfolio piece',
    width: 1000,
    height: Math.round((1000 * ratio.height) / ratio.width),
  });
  img?.style.setProperty('aspect-ratio', `${ratio.width} / ${ratio.height}`);
  // With a title, the title's link covers the whole tile. Without one, the image itself is the
  // link (named by its alt text), or a plain "View this piece" link when there is no image either.
  const href = title ? null : safeUrl(item.url);
  const media = href && img ? h('a', { class: 'portfolio__link', href }, img) : img;
  const fallbackLink =
    href && !img ? h('a', { class: 'portfolio__link', href, text: 'View this piece' }) : null;
  const caption =
    title || str(item.description) || str(item.date) || fallbackLink
      ? h(
          'figcaption',
          { class: 'tile__body' },
          renderTitle(title, item.url),
          renderDescription(item.description),
          renderDate(item.date),
          fallbackLink,
        )
      : null;
  // Panoramic pieces (2:1 and wider, like the default 5:2) get a wide tile so they are not tiny.
  const wide = ratio.width / ratio.height >= 2;
  return tile('portfolio', { wide }, h('figure', { class: 'portfolio' }, media, caption));
}

function initials(name) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join('');
}

function renderClient(item) {
  const title = str(item.title) ?? '';
  const logo =
    image(str(item.image) ?? item.icon, { className: 'client__image', width: 200, height: 80 }) ??
    h('span', { class: 'client__monogram', 'aria-hidden': 'true', text: initials(title) });
  return h(
    'li',
    { class: 'client', 'data-kind': 'client' },
    h('span', { class: 'client__logo' }, logo),
    renderTitle(title, item.url),
    renderDate(item.date),
  );
}

function renderTestimonial(item) {
  const name = str(item.name);
  const detail = [str(item.role), name ? str(item.org) : null].filter(Boolean).join(', ');
  const who = name ?? str(item.org);
  const portrait = image(str(item.image) ?? item.icon, {
    className: 'testimonial__image',
    width: 48,
    height: 48,
  });
  const quote = str(item.quote);
  // The url always leads somewhere: from the attribution when there is one, else from the quote
  // itself, else from a "Source" link in its place.
  const href = who ? null : safeUrl(item.url);
  const quoteContent =
    href && quote ? h('a', { class: 'testimonial__link', href, text: quote }) : (quote ?? '');
  const sourceLink =
    href && !quote ? h('a', { class: 'testimonial__name testimonial__link', href, text: 'Source' }) : null;
  return h(
    'li',
    { class: 'testimonial', 'data-kind': 'testimonial' },
    h(
      'figure',
      { class: 'testimonial__figure' },
      h('blockquote', { class: 'testimonial__quote' }, h('p', {}, quoteContent)),
      h(
        'figcaption',
        { class: 'testimonial__by' },
        portrait,
        h(
          'span',
          { class: 'testimonial__who' },
          who && linkOrText(item.url, { class: 'testimonial__name' }, who),
          sourceLink,
          detail && h('span', { class: 'testimonial__role', text: detail }),
          renderDate(item.date),
        ),
      ),
    ),
  );
}

const RENDERERS = {
  link: renderLink,
  card: renderCard,
  video: renderVideo,
  portfolio: renderPortfolio,
  client: renderClient,
  testimonial: renderTestimonial,
};

function renderItem(item) {
  const render = RENDERERS[item?.type];
  if (!render) {
    console.warn(`Skipped an item of unknown type "${item?.type}" in ${DATA_URL}.`);
    return null;
  }
  return render(item);
}

/* ---------- Sections ---------- */

const LAYOUTS = { clients: 'grid grid--clients', testimonials: 'grid grid--testimonials' };

function renderSection(section, index) {
  const id = str(section.id) ?? `section-${index + 1}`;
  const label = str(section.label) ?? id;
  const items = (Array.isArray(section.items) ? section.items : []).map(renderItem);
  const list = h('ul', { class: LAYOUTS[section.layout] ?? 'grid grid--bento', role: 'list' }, ...items);

  // A headless section continues the one before it: no visible header, but still a named region.
  if (section.headless === true) {
    return h('section', { class: 'section section--headless', id, 'aria-label': label }, list);
  }
  const headingId = `${id}-heading`;
  return h(
    'section',
    { class: 'section', id, 'aria-labelledby': headingId },
    h(
      'header',
      { class: 'section__header' },
      str(section.kicker) && h('p', { class: 'section__kicker', text: section.kicker }),
      h('h2', { class: 'section__title', id: headingId, text: label }),
    ),
    list,
  );
}

/* ---------- Footer ---------- */

function renderFooter(footer) {
  const element = document.getElementById('footer');
  if (!footer || typeof footer !== 'object') return;
  const year = str(footer.year) === 'auto' ? String(new Date().getFullYear()) : str(footer.year);
  const line = [year && `© ${year}`, str(footer.copy)].filter(Boolean).join(' ');
  const editUrl = safeUrl(footer.editUrl);
  element.replaceChildren(
    ...[
      line && h('p', { class: 'site-footer__copy', text: line }),
      editUrl &&
        h('a', { class: 'site-footer__edit', href: editUrl }, icon('pencil'), 'Suggest an edit to this page'),
    ].filter(Boolean),
  );
  element.hidden = false;
}

/* ---------- Loading ---------- */

class ContentError extends Error {}

async function loadContent() {
  let response;
  try {
    response = await fetch(DATA_URL);
  } catch {
    throw new ContentError(`The links file ${DATA_URL} could not be loaded: the network request failed.`);
  }
  if (!response.ok) {
    throw new ContentError(`The links file ${DATA_URL} could not be loaded (HTTP ${response.status}).`);
  }
  let data;
  try {
    data = JSON.parse(await response.text());
  } catch (error) {
    throw new ContentError(`The links file ${DATA_URL} is not valid JSON: ${error.message}`);
  }
  if (!str(data?.profile?.name) || !Array.isArray(data.sections)) {
    throw new ContentError(
      `The links file ${DATA_URL} does not have the expected shape: it needs a profile with a name and a list of sections.`,
    );
  }
  return data;
}

function showError(message) {
  document.getElementById('content').replaceChildren(
    h(
      'div',
      { class: 'notice notice--error', role: 'alert' },
      h('h1', { class: 'notice__title', text: 'This page could not be displayed' }),
      h('p', { text: message }),
      h('p', {
        text: `If you maintain this page, check the file against ${DATA_URL.replace('.json', '.schema.json')}.`,
      }),
    ),
  );
}

async function main() {
  let data;
  try {
    data = await loadContent();
  } catch (error) {
    applyTheme(null);
    showError(error instanceof ContentError ? error.message : `The links could not be shown: ${error}`);
    return;
  }
  applyTheme(data.theme);
  renderHero(data.profile, data.social);
  document.getElementById('content').replaceChildren(...data.sections.map(renderSection));
  renderFooter(data.footer);
}

main();
