import { AppError } from '../errors/app-error';
import { MAX_UPLOAD_BYTES } from './upload-policy';

const MEGABYTES = Math.round(MAX_UPLOAD_BYTES / (1024 * 1024));

/** The upload route's refusals (decision 14: 400, 413, 415), each saying what to do instead. */
export const UploadErrors = {
  notMultipart: () =>
    new AppError(400, 'BAD_REQUEST', 'Send the file as multipart/form-data with the parts file, cid and cs.'),
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
