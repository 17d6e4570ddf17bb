import { organizerContactWords } from './organizer-contact';

describe('organizerContactWords', () => {
  const sentence = ({ before, email, after }: ReturnType<typeof organizerContactWords>) =>
    `${before}${email ?? ''}${after}`;

  it('names the organizer and the address, with or without asking for a new link', () => {
    const contact = { name: 'Sam Rivera', email: 'sam@example.org' };
    expect(organizerContactWords(contact)).toEqual({
      before: 'contact Sam Rivera at ',
      email: 'sam@example.org',
      after: '.',
    });
    expect(sentence(organizerContactWords(contact, true))).toBe(
      'contact Sam Rivera at sam@example.org and ask for a new personal link.',
    );
  });

  it('says whom to ask with what is set, and in general words with nothing set', () => {
    expect(sentence(organizerContactWords({ name: null, email: 'help@example.org' }))).toBe(
      'contact your organizer at help@example.org.',
    );
    expect(organizerContactWords({ name: 'Sam Rivera', email: null })).toEqual({
      before: 'contact Sam Rivera, your organizer.',
      email: null,
      after: '',
    });
    expect(sentence(organizerContactWords({ name: null, email: null }, true))).toBe(
      'contact the organizer who sent you your check-in link and ask for a new personal link.',
    );
  });
});
