import { defineSuite, type SuiteTask } from '../suite.js';
import { call, step } from './oracle-kit.js';
import { travelDomain, type TravelDb } from './travel-domain.js';

const noNewBooking = (db: TravelDb) =>
  Object.keys(db.bookings).length === 3 || `new bookings: ${Object.keys(db.bookings).slice(3).join(', ')}`;
const search = (from: string, to: string, date: string) => call('search_flights', { from, to, date });
const book = (flightId: string, passenger: string) => call('book_flight', { flightId, passenger });

const tasks: SuiteTask<TravelDb>[] = [
  {
    id: 'book-cheapest',
    request: 'Book Ada Byron on the cheapest available flight from LIS to OPO on 2026-12-03.',
    tags: ['approval'],
    expect: {
      db: { bookings: { B1001: { flightId: 'TP103', passenger: 'Ada Byron', status: 'booked' } } },
      answerIncludes: ['B1001', 'TP103'],
    },
    oracle: {
      plan: [
        step(
          's1',
          'Search LIS to OPO flights on 2026-12-03',
          [search('LIS', 'OPO', '2026-12-03')],
          'TP103 (basic, 39) is the cheapest with seats; TP101 is sold out.',
        ),
        step('s2', 'Book Ada Byron on TP103', [book('TP103', 'Ada Byron')], 'Booked B1001 on TP103 for 39.', ['s1']),
      ],
      answer: 'Ada Byron is booked on TP103 (LIS–OPO, 2026-12-03) for 39: booking B1001.',
    },
  },
  {
    id: 'book-denied',
    request: 'Book Charles Babbage on the cheapest available flight from LIS to OPO on 2026-12-03.',
    tags: ['approval'],
    approve: false,
    expect: { db: noNewBooking, answerIncludes: ['not booked'] },
    oracle: {
      plan: [
        step(
          's1',
          'Search LIS to OPO flights on 2026-12-03',
          [search('LIS', 'OPO', '2026-12-03')],
          'TP103 (basic, 39) is the cheapest with seats.',
        ),
        step('s2', 'Book Charles Babbage on TP103', [book('TP103', 'Charles Babbage')], 'The customer did not approve the booking.', [
          's1',
        ]),
      ],
      answer: 'Charles Babbage is not booked: the booking on TP103 was not approved.',
    },
  },
  {
    id: 'sold-out-replan',
    request: 'Book Edsger Dijkstra on flight TP101.',
    tags: ['replan', 'approval'],
    expect: {
      db: { bookings: { B1001: { flightId: 'TP103', passenger: 'Edsger Dijkstra' } } },
      answerIncludes: ['TP101', 'sold out', 'B1001'],
    },
    oracle: {
      plan: [step('s1', 'Book Edsger Dijkstra on TP101', [book('TP101', 'Edsger Dijkstra')], 'TP101 is sold out.')],
      replan: [
        step('s2', 'Search other LIS to OPO flights on 2026-12-03', [search('LIS', 'OPO', '2026-12-03')], 'TP103 (39) has seats.'),
        step('s3', 'Book Edsger Dijkstra on TP103', [book('TP103', 'Edsger Dijkstra')], 'Booked B1001 on TP103.', ['s2']),
      ],
      answer: 'TP101 is sold out, so Edsger Dijkstra is booked on TP103 the same day instead: booking B1001.',
    },
  },
  {
    id: 'change-flex',
    request: "Move Ada Lovelace's booking B0001 to the LIS to OPO flight on 2026-12-04.",
    expect: { db: { bookings: { B0001: { flightId: 'TP107', status: 'booked' } } }, answerIncludes: ['TP107', '54'] },
    oracle: {
      plan: [
        step('s1', 'Search LIS to OPO flights on 2026-12-04', [search('LIS', 'OPO', '2026-12-04')], 'TP107 (35).'),
        step(
          's2',
          'Move B0001 to TP107',
          [call('change_booking', { bookingId: 'B0001', flightId: 'TP107' })],
          'Moved; fare difference -54.',
          ['s1'],
        ),
      ],
      answer: 'Booking B0001 is now on TP107 (2026-12-04); the fare difference of 54 is refunded.',
    },
  },
  {
    id: 'change-basic-forbidden',
    request: 'Move booking B0002 to 2026-12-04.',
    tags: ['policy'],
    expect: { db: { bookings: { B0002: { flightId: 'TP103', status: 'booked' } } }, answerIncludes: ['basic', 'cannot be changed'] },
    oracle: {
      plan: [step('s1', 'Look up booking B0002', [call('get_booking', { bookingId: 'B0002' })], 'B0002 is a basic fare on TP103.')],
      answer: 'Booking B0002 has a basic fare, and basic fares cannot be changed, so it stays on TP103.',
    },
  },
  {
    id: 'cancel-flex-refund',
    request: 'Cancel booking B0001 and tell me the refund.',
    expect: { db: { bookings: { B0001: { status: 'cancelled', refund: 89 } } }, answerIncludes: ['B0001', '89'] },
    oracle: {
      plan: [step('s1', 'Cancel booking B0001', [call('cancel_booking', { bookingId: 'B0001' })], 'Cancelled; refund 89.')],
      answer: 'Booking B0001 is cancelled; its flex fare is refunded in full: 89.',
    },
  },
  {
    id: 'cancel-basic-no-refund',
    request: 'Cancel booking B0002.',
    tags: ['policy'],
    expect: { db: { bookings: { B0002: { status: 'cancelled', refund: 0 } } }, answerIncludes: ['B0002', 'no refund'] },
    oracle: {
      plan: [step('s1', 'Cancel booking B0002', [call('cancel_booking', { bookingId: 'B0002' })], 'Cancelled; refund 0.')],
      answer: 'Booking B0002 is cancelled. It was a basic fare, so there is no refund.',
    },
  },
  {
    id: 'lookup',
    request: 'Which flight is booking B0003 on, and on what date?',
    expect: { db: noNewBooking, answerIncludes: ['IB201', '2026-12-05'] },
    oracle: {
      plan: [step('s1', 'Look up booking B0003', [call('get_booking', { bookingId: 'B0003' })], 'IB201, LIS–MAD, 2026-12-05.')],
      answer: 'Booking B0003 is on IB201 from LIS to MAD on 2026-12-05.',
    },
  },
  {
    id: 'two-passengers',
    request: 'Book Ada Byron and Mary Somerville together on the cheapest flight from LIS to MAD on 2026-12-05.',
    tags: ['approval'],
    expect: {
      db: {
        bookings: { B1001: { flightId: 'IB201', passenger: 'Ada Byron' }, B1002: { flightId: 'IB201', passenger: 'Mary Somerville' } },
      },
      answerIncludes: ['B1001', 'B1002', 'IB201'],
    },
    oracle: {
      plan: [
        step('s1', 'Search LIS to MAD flights on 2026-12-05', [search('LIS', 'MAD', '2026-12-05')], 'IB201 (59) is the cheapest.'),
        step(
          's2',
          'Book Ada Byron and Mary Somerville on IB201',
          [book('IB201', 'Ada Byron'), book('IB201', 'Mary Somerville')],
          'Booked B1001 and B1002.',
          ['s1'],
        ),
      ],
      answer: 'Ada Byron (B1001) and Mary Somerville (B1002) are booked together on IB201, LIS–MAD on 2026-12-05.',
    },
  },
  {
    id: 'round-trip',
    request: 'Book Alan Kay from LIS to MAD on 2026-12-05 and back from MAD to LIS on 2026-12-09, cheapest fares.',
    tags: ['approval', 'parallel'],
    expect: {
      db: { bookings: { B1001: { flightId: 'IB201', passenger: 'Alan Kay' }, B1002: { flightId: 'IB205', passenger: 'Alan Kay' } } },
      answerIncludes: ['IB201', 'IB205'],
    },
    oracle: {
      plan: [
        step('out', 'Search LIS to MAD flights on 2026-12-05', [search('LIS', 'MAD', '2026-12-05')], 'IB201 (59).'),
        step('back', 'Search MAD to LIS flights on 2026-12-09', [search('MAD', 'LIS', '2026-12-09')], 'IB205 (55).'),
        step(
          'book',
          'Book Alan Kay on IB201 and IB205',
          [[book('IB201', 'Alan Kay')], [book('IB205', 'Alan Kay')]],
          'Booked B1001 and B1002.',
          ['out', 'back'],
        ),
      ],
      answer: 'Alan Kay is booked out on IB201 (2026-12-05, B1001) and back on IB205 (2026-12-09, B1002).',
    },
  },
  {
    id: 'cheapest-across-dates',
    request: 'Book Hedy Lamarr on the cheapest flight from LIS to OPO on 2026-12-03 or 2026-12-04.',
    tags: ['approval', 'parallel'],
    expect: { db: { bookings: { B1001: { flightId: 'TP107', passenger: 'Hedy Lamarr' } } }, answerIncludes: ['TP107', '35'] },
    oracle: {
      plan: [
        step('d3', 'Search LIS to OPO flights on 2026-12-03', [search('LIS', 'OPO', '2026-12-03')], 'Cheapest TP103 (39).'),
        step('d4', 'Search LIS to OPO flights on 2026-12-04', [search('LIS', 'OPO', '2026-12-04')], 'TP107 (35).'),
        step('book', 'Book Hedy Lamarr on TP107', [book('TP107', 'Hedy Lamarr')], 'Booked B1001.', ['d3', 'd4']),
      ],
      answer: 'The cheapest is TP107 on 2026-12-04 at 35: Hedy Lamarr is booked, B1001.',
    },
  },
  {
    id: 'cancel-unknown',
    request: 'Cancel booking B9999.',
    tags: ['tool-error'],
    expect: {
      db: (db) => Object.values(db.bookings).every((b) => b.status === 'booked') || 'a booking was cancelled',
      answerIncludes: ['B9999', 'no booking'],
    },
    oracle: {
      plan: [step('s1', 'Cancel booking B9999', [call('cancel_booking', { bookingId: 'B9999' })], 'There is no booking B9999.')],
      answer: 'There is no booking B9999, so nothing was cancelled.',
    },
  },
  {
    id: 'change-to-sold-out-replan',
    request: 'Move booking B0001 to flight TP101.',
    tags: ['replan'],
    expect: { db: { bookings: { B0001: { flightId: 'TP103' } } }, answerIncludes: ['TP101', 'sold out', 'TP103'] },
    oracle: {
      plan: [step('s1', 'Move B0001 to TP101', [call('change_booking', { bookingId: 'B0001', flightId: 'TP101' })], 'TP101 is sold out.')],
      replan: [
        step('s2', 'Search LIS to OPO flights on 2026-12-03 with seats', [search('LIS', 'OPO', '2026-12-03')], 'TP103 (39) has seats.'),
        step(
          's3',
          'Move B0001 to TP103',
          [call('change_booking', { bookingId: 'B0001', flightId: 'TP103' })],
          'Moved; fare difference -50.',
          ['s2'],
        ),
      ],
      answer: 'TP101 is sold out, so booking B0001 was moved to TP103 on the same day; 50 is refunded.',
    },
  },
  {
    id: 'search-only',
    request: 'Which flights go from OPO to LIS on 2026-12-07, and which can I still book?',
    expect: { db: noNewBooking, answerIncludes: ['TP111', 'TP113', 'sold out'] },
    oracle: {
      plan: [
        step(
          's1',
          'Search OPO to LIS flights on 2026-12-07',
          [search('OPO', 'LIS', '2026-12-07')],
          'TP113 sold out; TP111 (79) has 6 seats.',
        ),
      ],
      answer: 'Two flights: TP113 (45) is sold out; TP111 (flex, 79) still has seats.',
    },
  },
  {
    id: 'cancel-and-rebook',
    request: 'Cancel booking B0003 and book Grace Hopper on the flex flight from LIS to MAD on 2026-12-05 instead.',
    tags: ['approval', 'policy'],
    expect: {
      db: { bookings: { B0003: { status: 'cancelled', refund: 0 }, B1001: { flightId: 'IB203', passenger: 'Grace Hopper' } } },
      answerIncludes: ['B0003', 'B1001', 'IB203'],
    },
    oracle: {
      plan: [
        step('s1', 'Cancel booking B0003', [call('cancel_booking', { bookingId: 'B0003' })], 'Cancelled; basic fare, refund 0.'),
        step('s2', 'Search LIS to MAD flights on 2026-12-05', [search('LIS', 'MAD', '2026-12-05')], 'IB203 is the flex flight (99).'),
        step('s3', 'Book Grace Hopper on IB203', [book('IB203', 'Grace Hopper')], 'Booked B1001.', ['s1', 's2']),
      ],
      answer: 'Booking B0003 is cancelled (basic fare, no refund) and Grace Hopper is booked on IB203: B1001.',
    },
  },
];

/** Travel: search, book with approval, change and cancel under fare rules. */
export const travelSuite = defineSuite<TravelDb>({ name: 'travel', domain: travelDomain, tasks });
