import { REFUSAL_HEADLINES, REFUSAL_SENTENCES, refusal } from './refusals';

describe('refusal sentences', () => {
  it('keeps headlines without a full stop, so pages can show them as headings', () => {
    for (const headline of Object.values(REFUSAL_HEADLINES)) {
      expect(headline).toMatch(/^[A-Z][^.!?]*[a-z]$/);
    }
  });

  it('ends every whole sentence with a full stop', () => {
    for (const sentence of Object.values(REFUSAL_SENTENCES)) {
      expect(sentence).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('makes a headline a sentence and adds what to do next', () => {
    expect(refusal(REFUSAL_HEADLINES.linkInvalid, REFUSAL_SENTENCES.askForNewLink)).toBe(
      'This link is not valid or has expired. Ask your organizer for a new one.',
    );
    expect(refusal(REFUSAL_HEADLINES.ourSide)).toBe('Something went wrong on our side.');
  });
});
