import { loadAppConfig } from '../config/app-config';
import { FileReceipts, RECEIPT_TTL_SECONDS } from './file-receipts';

const receipts = new FileReceipts(loadAppConfig({}));
const subject = { contactId: 102, orgId: 201, field: 'Business_plan', fileId: 77 };
const ISSUED_AT = 1_800_000_000;

describe('FileReceipts', () => {
  const receipt = receipts.issue(subject, ISSUED_AT);

  it('vouches for exactly its subject until it expires', () => {
    expect(receipts.verify(subject, receipt, ISSUED_AT)).toBe(true);
    expect(receipts.verify(subject, receipt, ISSUED_AT + RECEIPT_TTL_SECONDS)).toBe(true);
    expect(receipts.verify({ ...subject, contactId: 103 }, receipt, ISSUED_AT)).toBe(false);
    expect(receipts.verify({ ...subject, fileId: 78 }, receipt, ISSUED_AT)).toBe(false);
  });

  it('is refused once expired, and its expiry cannot be moved', () => {
    expect(receipts.verify(subject, receipt, ISSUED_AT + RECEIPT_TTL_SECONDS + 1)).toBe(false);
    const [expires, mac] = receipt.split('.');
    const extended = `${Number(expires) + 86_400}.${mac}`;
    expect(receipts.verify(subject, extended, ISSUED_AT + RECEIPT_TTL_SECONDS + 1)).toBe(false);
    expect(receipts.verify(subject, mac, ISSUED_AT)).toBe(false);
  });

  it('is refused in any other spelling of the same MAC', () => {
    // 32 bytes are 43 base64url characters, 258 bits: flipping the last one's lowest bit decodes alike.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${receipt.slice(0, -1)}${alphabet[alphabet.indexOf(receipt.slice(-1)) ^ 1]}`;
    expect(Buffer.from(respelled.split('.')[1] ?? '', 'base64url')).toEqual(
      Buffer.from(receipt.split('.')[1] ?? '', 'base64url'),
    );
    expect(receipts.verify(subject, respelled, ISSUED_AT)).toBe(false);
  });
});
