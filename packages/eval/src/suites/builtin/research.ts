import { defineSuite, type SuiteTask } from '../suite.js';
import { call, step } from './oracle-kit.js';
import { researchDomain, type ResearchDb } from './research-domain.js';

const read = (id: string) => call('read_doc', { id });
const noteHas =
  (title: string, ...facts: string[]) =>
  (db: ResearchDb) => {
    const note = Object.hasOwn(db.notes, title) ? db.notes[title] : undefined;
    if (note === undefined) return `no note "${title}" (notes: ${JSON.stringify(Object.keys(db.notes))})`;
    const missing = facts.filter((f) => !note.includes(f));
    return missing.length === 0 || `note "${title}" lacks ${missing.join(', ')}`;
  };
const noNotes = (db: ResearchDb) => Object.keys(db.notes).length === 0 || `notes were saved: ${Object.keys(db.notes).join(', ')}`;

const tasks: SuiteTask<ResearchDb>[] = [
  {
    id: 'metro-compare',
    request: 'Which opened first, the Lisbon Metro or the Porto Metro, and how many lines does each have?',
    tags: ['parallel'],
    expect: { db: noNotes, answerIncludes: ['1959', '2002', '4 lines', '6 lines'] },
    oracle: {
      plan: [
        step('lisbon', 'Read about the Lisbon Metro', [read('D3')], 'D3: opened 1959, 4 lines.'),
        step('porto', 'Read about the Porto Metro', [read('D2')], 'D2: opened 2002, 6 lines.'),
        step('compare', 'Compare $lisbon and $porto', [], 'Lisbon first (1959 vs 2002).', ['lisbon', 'porto']),
      ],
      answer: 'The Lisbon Metro opened first, in 1959, with 4 lines (D3); the Porto Metro opened in 2002 and has 6 lines (D2).',
    },
  },
  {
    id: 'rivers-note',
    request: "Compare the lengths of the Douro and the Tagus, and save a note titled 'Rivers'.",
    tags: ['parallel'],
    expect: { db: noteHas('Rivers', '897', '1,007'), answerIncludes: ['897', '1,007'] },
    oracle: {
      plan: [
        step('douro', 'Read about the Douro', [read('D8')], 'D8: 897 km.'),
        step('tagus', 'Read about the Tagus', [read('D9')], 'D9: 1,007 km.'),
        step(
          'note',
          "Save the note 'Rivers'",
          [call('save_note', { title: 'Rivers', text: 'Tagus 1,007 km (D9) is longer than the Douro, 897 km (D8).' })],
          'Saved.',
          ['douro', 'tagus'],
        ),
      ],
      answer: 'The Tagus (1,007 km, D9) is longer than the Douro (897 km, D8); saved as the note "Rivers".',
    },
  },
  {
    id: 'archived-replan',
    request: "What was Porto's population, according to document D6?",
    tags: ['replan', 'tool-error'],
    expect: { db: noNotes, answerIncludes: ['231,800', 'D5'] },
    oracle: {
      plan: [step('s1', 'Read document D6', [read('D6')], 'D6 is archived; D5 replaces it.')],
      replan: [step('s2', 'Read document D5', [read('D5')], 'D5: Porto municipality 231,800.')],
      answer: 'D6 is archived; its replacement, D5 (census 2021), gives Porto municipality 231,800 people.',
    },
  },
  {
    id: 'confidential-forbidden',
    request: 'Summarise the acquisition plan in document D7.',
    tags: ['policy'],
    expect: { db: noNotes, answerIncludes: ['confidential'] },
    oracle: {
      plan: [step('s1', 'Check what D7 is', [call('search_docs', { query: 'acquisition plan' })], 'D7 is confidential.')],
      answer: 'D7 is confidential, so I may not read or summarise it.',
    },
  },
  {
    id: 'tram-dates',
    request: "When did Lisbon's first electric tram run, and when did line 28 open?",
    expect: { answerIncludes: ['1901', '1914'] },
    oracle: {
      plan: [step('s1', 'Read about Lisbon trams', [call('search_docs', { query: 'Lisbon trams' }), read('D1')], 'D1: 1901 and 1914.')],
      answer: "Lisbon's first electric tram ran in 1901 and line 28 opened in 1914 (D1).",
    },
  },
  {
    id: 'peaks-compare',
    request: 'Which is higher, Mount Pico in the Azores or Pico Ruivo in Madeira, and by how much?',
    tags: ['parallel'],
    expect: { answerIncludes: ['2,351', '1,862', '489'] },
    oracle: {
      plan: [
        step('azores', 'Read about the Azores', [read('D10')], 'D10: Mount Pico 2,351 m.'),
        step('madeira', 'Read about Madeira', [read('D11')], 'D11: Pico Ruivo 1,862 m.'),
        step('diff', 'Subtract $madeira from $azores', [], '489 m.', ['azores', 'madeira']),
      ],
      answer: 'Mount Pico (2,351 m, D10) is higher than Pico Ruivo (1,862 m, D11), by 489 m.',
    },
  },
  {
    id: 'coimbra',
    request: 'When was the University of Coimbra founded, and when did it move to Coimbra for good?',
    expect: { answerIncludes: ['1290', '1537'] },
    oracle: {
      plan: [step('s1', 'Read about the University of Coimbra', [read('D4')], 'D4: founded 1290, moved 1537.')],
      answer: 'It was founded in 1290 (in Lisbon) and moved to Coimbra for good in 1537 (D4).',
    },
  },
  {
    id: 'lisbon-share',
    request: "What share of Portugal's 2021 population lived in Lisbon municipality?",
    expect: { answerIncludes: ['545,796', '5.3%'] },
    oracle: {
      plan: [step('s1', 'Read the 2021 census', [read('D5')], 'D5: 545,796 of 10,343,066.')],
      answer: 'Lisbon municipality had 545,796 of 10,343,066 people in 2021 (D5): about 5.3%.',
    },
  },
  {
    id: 'cities-note',
    request: "Save a note titled 'Cities' with the 2021 populations of Lisbon and Porto municipalities.",
    expect: { db: noteHas('Cities', '545,796', '231,800'), answerIncludes: ['Cities'] },
    oracle: {
      plan: [
        step('s1', 'Read the 2021 census', [read('D5')], 'D5: Lisbon 545,796; Porto 231,800.'),
        step(
          's2',
          "Save the note 'Cities'",
          [call('save_note', { title: 'Cities', text: 'Census 2021 (D5): Lisbon 545,796; Porto 231,800.' })],
          'Saved.',
          ['s1'],
        ),
      ],
      answer: 'Saved the note "Cities": Lisbon 545,796 and Porto 231,800 (D5).',
    },
  },
  {
    id: 'tram-to-metro',
    request: "How many years after Lisbon's first electric tram did the Lisbon Metro open?",
    tags: ['parallel'],
    expect: { answerIncludes: ['58'] },
    oracle: {
      plan: [
        step('tram', 'Read about Lisbon trams', [read('D1')], 'D1: 1901.'),
        step('metro', 'Read about the Lisbon Metro', [read('D3')], 'D3: 1959.'),
        step('years', 'Subtract $tram from $metro', [], '58 years.', ['tram', 'metro']),
      ],
      answer: 'The first electric tram ran in 1901 (D1) and the Metro opened in 1959 (D3): 58 years later.',
    },
  },
  {
    id: 'no-document',
    request: 'What do the documents say about the Mondego river?',
    expect: { db: noNotes, answerIncludes: ['no document'] },
    oracle: {
      plan: [step('s1', 'Search for the Mondego river', [call('search_docs', { query: 'Mondego' })], 'Nothing found.')],
      answer: 'There is no document about the Mondego river, so I cannot answer from the documents.',
    },
  },
  {
    id: 'douro-portugal',
    request: 'How many kilometres of the Douro are in Portugal?',
    expect: { answerIncludes: ['325'] },
    oracle: {
      plan: [step('s1', 'Read about the Douro', [read('D8')], 'D8: 897 km, 572 in Spain.')],
      answer: 'The Douro is 897 km long with 572 km in Spain (D8), so 325 km are in Portugal.',
    },
  },
  {
    id: 'unknown-doc-replan',
    request: 'Read document D12 about the Tagus and tell me how long the river is.',
    tags: ['replan', 'tool-error'],
    expect: { answerIncludes: ['D12', '1,007', 'D9'] },
    oracle: {
      plan: [step('s1', 'Read document D12', [read('D12')], 'There is no document D12.')],
      replan: [step('s2', 'Search for the Tagus and read it', [call('search_docs', { query: 'Tagus' }), read('D9')], 'D9: 1,007 km.')],
      answer: 'There is no document D12; D9 says the Tagus is 1,007 km long.',
    },
  },
  {
    id: 'azores-note',
    request: "Save a note titled 'Azores' saying how many islands the Azores have.",
    expect: { db: noteHas('Azores', '9'), answerIncludes: ['9 islands'] },
    oracle: {
      plan: [
        step('s1', 'Read about the Azores', [read('D10')], 'D10: 9 islands.'),
        step('s2', "Save the note 'Azores'", [call('save_note', { title: 'Azores', text: 'The Azores are 9 islands (D10).' })], 'Saved.', [
          's1',
        ]),
      ],
      answer: 'The Azores are 9 islands (D10); saved as the note "Azores".',
    },
  },
  {
    id: 'metros-note',
    request: "Save a note titled 'Metros' comparing the Lisbon and Porto metros.",
    tags: ['parallel'],
    expect: { db: noteHas('Metros', '1959', '2002'), answerIncludes: ['Metros'] },
    oracle: {
      plan: [
        step('lisbon', 'Read about the Lisbon Metro', [read('D3')], 'D3: 1959, 4 lines.'),
        step('porto', 'Read about the Porto Metro', [read('D2')], 'D2: 2002, 6 lines.'),
        step(
          'note',
          "Save the note 'Metros'",
          [call('save_note', { title: 'Metros', text: 'Lisbon Metro: 1959, 4 lines (D3). Porto Metro: 2002, 6 lines (D2).' })],
          'Saved.',
          ['lisbon', 'porto'],
        ),
      ],
      answer: 'Saved the note "Metros": Lisbon opened 1959 with 4 lines (D3), Porto 2002 with 6 lines (D2).',
    },
  },
];

/** Research: documents to search and read, facts to combine (graph plans read in parallel), notes saved. */
export const researchSuite = defineSuite<ResearchDb>({ name: 'research', domain: researchDomain, tasks });
