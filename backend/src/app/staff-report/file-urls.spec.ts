import { collectFileIds, withFileUrls } from './file-urls';

describe('collectFileIds', () => {
  it('collects each file id once, ascending, from every value map', () => {
    const ids = collectFileIds([
      { Certificate: { id: 9, file_name: 'c.pdf' }, Equity_share: 200 },
      { Plan: { id: 4 }, Focus: ['groceries'], Notes: 'text' },
      { Plan: { id: 9, file_name: 'c.pdf' } },
    ]);
    expect(ids).toEqual([4, 9]);
  });

  it('finds none where no value is a file', () => {
    expect(collectFileIds([{ Done: true, Size: 5, Focus: [] }, {}])).toEqual([]);
  });
});

describe('withFileUrls', () => {
  const urls = new Map([[4, 'https://crm.example.org/civicrm/file?reset=1&id=4&fcs=abc']]);

  it('gives a file value the url the lookup answered, keeping its id and name', () => {
    expect(withFileUrls({ Plan: { id: 4, file_name: 'plan.docx' } }, urls)).toEqual({
      Plan: {
        id: 4,
        file_name: 'plan.docx',
        url: 'https://crm.example.org/civicrm/file?reset=1&id=4&fcs=abc',
      },
    });
  });

  it('leaves files the lookup did not answer, and every other value, as they were', () => {
    const values = { Study: { id: 5 }, Size: 5, Focus: ['bulk'] };
    expect(withFileUrls(values, urls)).toEqual(values);
  });
});
