import { AppError } from '../errors/app-error';
import { MAX_UPLOAD_BYTES } from '../check-ins/upload-policy';

const MEGABYTES = Math.round(MAX_UPLOAD_BYTES / (1024 * 1024));

/** The upload route's refusals (docs/decisions.md, "Error bodies": 400, 408, 413, 415, 429), each saying what to do instead. */
export const UploadErrors = {
  notMultipart: () =>
    new AppError(400, 'BAD_REQUEST', 'Send the file as multipart/form-data with the parts file, cid and cs.'),
  linkAfterFile: () =>
    new AppError(
      400,
      'BAD_REQUEST',
      'Send the parts cid, cs and fieldRef before the file part (as browsers do), then the file.',
    ),
  timedOut: () =>
    new AppError(408, 'REQUEST_TIMEOUT', 'The upload took too long to arrive. Please try again.'),
  tooSlow: () =>
    new AppError(
      408,
      'REQUEST_TIMEOUT',
      'The upload arrived too slowly. Please try again on a faster connection, or with a smaller file.',
    ),
  busy: (retryAfterSeconds: number) =>
    new AppError(429, 'RATE_LIMITED', 'Too many uploads at once. Please try again in a few seconds.', {
      retryAfterSeconds,
    }),
  unreadable: () => new AppError(400, 'BAD_REQUEST', 'The upload could not be read. Please try again.'),
  fieldNotAllowed: () =>
    new AppError(400, 'FIELD_NOT_ALLOWED', 'Files can only be attached to the file questions of the form.'),
  fileMissing: () =>
    new AppError(400, 'FILE_MISSING', 'No file arrived. Choose a file (it cannot be empty) and try again.'),
  fileTooLarge: () =>
    new AppError(
      413,
      'FILE_TOO_LARGE',
      `The file is larger than ${MEGABYTES} MB. Please upload a smaller or compressed version.`,
    ),
  unsupportedType: () =>
    new AppError(
      415,
      'UNSUPPORTED_FILE_TYPE',
      'This type of file cannot be uploaded. Use a PDF, Word or Excel document, or a JPEG, PNG, GIF or WebP image.',
    ),
  contentMismatch: () =>
    new AppError(
      415,
      'FILE_CONTENT_MISMATCH',
      'The file’s content does not match its type. Save it again as a PDF, Word or Excel document or an image, and upload that.',
    ),
};
