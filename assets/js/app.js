/**
 * Links page: reads data/links.json (described by data/links.schema.json) and builds the page.
 *
 * Safety rules that hold everywhere below: content is only ever set as text (never parsed as HTML),
 * and only web, mail and relative addresses become links or image sources.
 */

import {
  h,
  hostOf,
  image,
  linkOrText,
  renderDate,
  renderDescription,
  renderTitle,
  safeUrl,
  str,
  WEB_PROTOCOLS,
} from './dom.js';
import { GIT_HOSTS, HOST_ICONS, ICONS, ICON_ALIASES, icon } from './icons.js';
import { applyTheme } from './theme.js';

const DATA_URL = 'data/links.json';
const DEFAULT_RATIO = { width: 5, height: 2 };
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const VIDEO_EMBED = 'https://www.youtube-nocookie.com/embed/';

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
