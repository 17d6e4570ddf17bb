import { type AllowedFileType, MAX_FILE_NAME_LENGTH } from '../check-ins/upload-policy';

/** Used when nothing of the client's name survives sanitizing. */
export const DEFAULT_FILE_STEM = 'upload';

/**
 * Control characters; the bidirectional marks and overrides that make "invoice\u202Efdp.exe"
 * display as "invoiceexe.pdf"; and the zero-width and other invisible format characters that
 * make two names look alike (U+200B–U+200D, U+061C, U+FEFF).
 */
const INVISIBLE_CHARACTERS = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu;
/** Device names Windows will not open a file by, whatever the extension ("CON.pdf", "lpt1.tar.pdf"). */
const WINDOWS_RESERVED_STEM = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;
/** Characters Windows refuses in names; people download these files again. */
const RESERVED_CHARACTERS = /[<>:"|?*]/g;
const EXTENSION = /\.([A-Za-z0-9]{1,10})$/;

/**
 * The name a file is stored under (docs/decisions.md, "Limits"): path parts and control characters removed,
 * at most 120 characters with the extension kept. The extension must be one of the verified
 * type's, so a PDF named "notes.html" is stored as "notes.html.pdf" and opens as what it is.
 */
export function sanitizeFileName(clientName: string | undefined, type: AllowedFileType): string {
  const cleaned = lastPathPart(clientName ?? '')
    .normalize('NFC')
    .replace(INVISIBLE_CHARACTERS, '')
    .replace(RESERVED_CHARACTERS, '_')
    .replace(/\s+/g, ' ')
    // "scan.pdf. " names a PDF too, once Windows has dropped the trailing dot and space.
    .replace(/[.\s]+$/, '');
  const { stem, extension } = splitExtension(cleaned, type);
  const room = MAX_FILE_NAME_LENGTH - extension.length - 1;
  const safeStem = truncate(stem || DEFAULT_FILE_STEM, room);
  // "_CON.pdf" opens on Windows; "CON.pdf" would name the console device.
  return WINDOWS_RESERVED_STEM.test(safeStem)
    ? `_${truncate(safeStem, room - 1)}.${extension}`
    : `${safeStem}.${extension}`;
}

/** Both separators count: a Windows browser may send "C:\Users\me\scan.pdf". */
function lastPathPart(name: string): string {
  return name.split(/[/\\]/).pop() ?? '';
}

/** Leading dots hide files (and make "..") and trailing dots or spaces vanish on Windows. */
function withoutEdgeDotsAndSpaces(name: string): string {
  return name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
}

function splitExtension(name: string, type: AllowedFileType): { stem: string; extension: string } {
  const match = EXTENSION.exec(name);
  const extension = match?.[1]?.toLowerCase();
  if (match && extension && type.extensions.includes(extension)) {
    return { stem: withoutEdgeDotsAndSpaces(name.slice(0, match.index)), extension };
  }
  return { stem: withoutEdgeDotsAndSpaces(name), extension: type.extensions[0] };
}

/** Cuts by characters, not UTF-16 units, so no emoji or accented letter is split in half. */
function truncate(text: string, maxCharacters: number): string {
  const characters = Array.from(text);
  if (characters.length <= maxCharacters) return text;
  return withoutEdgeDotsAndSpaces(characters.slice(0, maxCharacters).join('')) || DEFAULT_FILE_STEM;
}
