/** The links page's icons (assets/js/app.js draws them): 24×24 line drawings in currentColor. */

const SVG_NS = 'http://www.w3.org/2000/svg';

/* ---------- Icons: 24×24 line drawings in currentColor. A {fill} entry is a solid shape. ---------- */

export const circle = (cx, cy, r) =>
  `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
export const dot = (x, y) => `M${x} ${y}h.01`;

export const ICONS = {
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
export const ICON_ALIASES = {
  twitter: 'x',
  mail: 'email',
  web: 'website',
  site: 'website',
  homepage: 'website',
  feed: 'rss',
};

/** Hosts whose social pill gets that network's icon when the entry names no icon. */
export const HOST_ICONS = {
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
export const GIT_HOSTS = {
  'github.com': { icon: 'github', name: 'GitHub' },
  'gitlab.com': { icon: 'gitlab', name: 'GitLab' },
  'codeberg.org': { icon: 'codeberg', name: 'Codeberg' },
  'bitbucket.org': { icon: 'bitbucket', name: 'Bitbucket' },
};

export function icon(name, className = 'icon') {
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
