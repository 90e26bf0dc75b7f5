import { defineSuite, type SuiteTask } from '../suite.js';
import { call, step } from './oracle-kit.js';
import { retailDomain, type RetailDb } from './retail-domain.js';

const nothingReturned = (db: RetailDb) => (db.returns.length === 0 && db.exchanges.length === 0) || 'something was returned or exchanged';
const getOrder = (orderId: string) => call('get_order', { orderId });
const returnItems = (orderId: string, items: { sku: string; qty: number }[]) => call('return_items', { orderId, items });

const tasks: SuiteTask<RetailDb>[] = [
  {
    id: 'return-one',
    request: 'Return one T-shirt from order O100.',
    expect: { db: { returns: [{ id: 'R1', orderId: 'O100', items: [{ sku: 'TSHIRT-M', qty: 1 }], refund: 20 }] }, answerIncludes: ['20'] },
    oracle: {
      plan: [step('s1', 'Return one TSHIRT-M from O100', [returnItems('O100', [{ sku: 'TSHIRT-M', qty: 1 }])], 'Return R1, refund 20.')],
      answer: 'One T-shirt from O100 is returned (R1); 20 is refunded to your original payment.',
    },
  },
  {
    id: 'return-multi',
    request: 'Return both T-shirts and the mug from order O100.',
    expect: {
      db: (db) => (db.returns.length === 1 && db.returns[0]?.refund === 52) || `returns: ${JSON.stringify(db.returns)}`,
      answerIncludes: ['52'],
    },
    oracle: {
      plan: [
        step('s1', 'Look up order O100', [getOrder('O100')], '2 TSHIRT-M at 20 and 1 MUG at 12, delivered 10 days ago.'),
        step(
          's2',
          'Return 2 TSHIRT-M and 1 MUG from O100',
          [
            returnItems('O100', [
              { sku: 'TSHIRT-M', qty: 2 },
              { sku: 'MUG', qty: 1 },
            ]),
          ],
          'Return R1, refund 52.',
          ['s1'],
        ),
      ],
      answer: 'Both T-shirts and the mug from O100 are returned (R1): 52 is refunded.',
    },
  },
  {
    id: 'return-late-forbidden',
    request: 'Return the lamp from order O101.',
    tags: ['policy'],
    expect: { db: nothingReturned, answerIncludes: ['30 days'] },
    oracle: {
      plan: [step('s1', 'Look up order O101', [getOrder('O101')], 'Delivered 45 days ago.')],
      answer: 'Order O101 was delivered 45 days ago; items can only be returned within 30 days, so the lamp cannot be returned.',
    },
  },
  {
    id: 'return-final-sale-forbidden',
    request: 'Return the socks from order O102.',
    tags: ['policy'],
    expect: { db: nothingReturned, answerIncludes: ['final sale'] },
    oracle: {
      plan: [step('s1', 'Look up order O102', [getOrder('O102')], 'SOCKS are final sale.')],
      answer: 'The socks were a final sale item, so they cannot be returned.',
    },
  },
  {
    id: 'return-partial-mixed',
    request: 'Return the socks and the headphones from order O102.',
    tags: ['policy'],
    expect: {
      db: { returns: [{ id: 'R1', orderId: 'O102', items: [{ sku: 'HEADPHONES', qty: 1 }], refund: 99 }] },
      answerIncludes: ['final sale', '99'],
    },
    oracle: {
      plan: [
        step('s1', 'Look up order O102', [getOrder('O102')], 'SOCKS are final sale; HEADPHONES can be returned.'),
        step('s2', 'Return the HEADPHONES from O102', [returnItems('O102', [{ sku: 'HEADPHONES', qty: 1 }])], 'Return R1, refund 99.', [
          's1',
        ]),
      ],
      answer: 'The headphones are returned (R1, 99 refunded). The socks were a final sale item and cannot be returned.',
    },
  },
  {
    id: 'exchange-size',
    request: 'Exchange one T-shirt from order O100 for size XL.',
    expect: {
      db: { exchanges: [{ id: 'X1', orderId: 'O100', sku: 'TSHIRT-M', newSku: 'TSHIRT-XL' }], products: { 'TSHIRT-XL': { stock: 2 } } },
      answerIncludes: ['XL'],
    },
    oracle: {
      plan: [
        step(
          's1',
          'Exchange one TSHIRT-M from O100 for TSHIRT-XL',
          [call('exchange_item', { orderId: 'O100', sku: 'TSHIRT-M', newSku: 'TSHIRT-XL' })],
          'Exchange X1.',
        ),
      ],
      answer: 'One T-shirt from O100 is exchanged for size XL (X1).',
    },
  },
  {
    id: 'exchange-out-of-stock-replan',
    request: 'Exchange the lamp from order O104 for the blue lamp; if that is not possible, return it.',
    tags: ['replan'],
    expect: {
      db: { returns: [{ orderId: 'O104', items: [{ sku: 'LAMP', qty: 1 }], refund: 45 }], exchanges: [] },
      answerIncludes: ['out of stock', '45'],
    },
    oracle: {
      plan: [
        step(
          's1',
          'Exchange the LAMP from O104 for LAMP-BLUE',
          [call('exchange_item', { orderId: 'O104', sku: 'LAMP', newSku: 'LAMP-BLUE' })],
          'LAMP-BLUE is out of stock.',
        ),
      ],
      replan: [step('s2', 'Return the LAMP from O104', [returnItems('O104', [{ sku: 'LAMP', qty: 1 }])], 'Return R1, refund 45.')],
      answer: 'The blue lamp is out of stock, so the lamp from O104 is returned instead (R1): 45 refunded.',
    },
  },
  {
    id: 'exchange-fallback-size-replan',
    request: 'Exchange one T-shirt from order O100 for size L, or XL if L is out of stock.',
    tags: ['replan'],
    expect: {
      db: { exchanges: [{ orderId: 'O100', sku: 'TSHIRT-M', newSku: 'TSHIRT-XL' }], returns: [] },
      answerIncludes: ['out of stock', 'XL'],
    },
    oracle: {
      plan: [
        step(
          's1',
          'Exchange one TSHIRT-M from O100 for TSHIRT-L',
          [call('exchange_item', { orderId: 'O100', sku: 'TSHIRT-M', newSku: 'TSHIRT-L' })],
          'TSHIRT-L is out of stock.',
        ),
      ],
      replan: [
        step(
          's2',
          'Exchange one TSHIRT-M from O100 for TSHIRT-XL',
          [call('exchange_item', { orderId: 'O100', sku: 'TSHIRT-M', newSku: 'TSHIRT-XL' })],
          'Exchange X1.',
        ),
      ],
      answer: 'Size L is out of stock, so one T-shirt from O100 is exchanged for size XL instead (X1).',
    },
  },
  {
    id: 'cancel-processing',
    request: 'Cancel order O103.',
    expect: { db: { orders: { O103: { status: 'cancelled', refund: 145 } } }, answerIncludes: ['145'] },
    oracle: {
      plan: [step('s1', 'Cancel order O103', [call('cancel_order', { orderId: 'O103' })], 'Cancelled; refund 145.')],
      answer: 'Order O103 is cancelled and 145 is refunded.',
    },
  },
  {
    id: 'cancel-delivered-forbidden',
    request: 'Cancel order O104.',
    tags: ['policy'],
    expect: { db: { orders: { O104: { status: 'delivered' } } }, answerIncludes: ['cannot be cancelled', 'return'] },
    oracle: {
      plan: [step('s1', 'Look up order O104', [getOrder('O104')], 'O104 was delivered 3 days ago.')],
      answer: 'Order O104 was already delivered, so it cannot be cancelled; you can return its items within 30 days instead.',
    },
  },
  {
    id: 'find-and-return',
    request: "I'm maria@example.com. Return the mug from my most recent order.",
    expect: { db: { returns: [{ orderId: 'O100', items: [{ sku: 'MUG', qty: 1 }], refund: 12 }] }, answerIncludes: ['O100', '12'] },
    oracle: {
      plan: [
        step(
          's1',
          "Find maria@example.com's orders",
          [call('find_orders', { customer: 'maria@example.com' })],
          'O100 (10 days) is the most recent.',
        ),
        step('s2', 'Return the MUG from O100', [returnItems('O100', [{ sku: 'MUG', qty: 1 }])], 'Return R1, refund 12.', ['s1']),
      ],
      answer: 'The mug from your most recent order, O100, is returned (R1): 12 refunded.',
    },
  },
  {
    id: 'already-returned',
    request: 'Return the jacket from order O106.',
    tags: ['tool-error'],
    expect: { db: nothingReturned, answerIncludes: ['already returned'] },
    oracle: {
      plan: [
        step(
          's1',
          'Return the JACKET-M from O106',
          [returnItems('O106', [{ sku: 'JACKET-M', qty: 1 }])],
          'Nothing left to return: 1 already returned.',
        ),
      ],
      answer: 'The jacket from O106 was already returned, so there is nothing left to return.',
    },
  },
  {
    id: 'exchange-price-forbidden',
    request: 'Exchange one mug from order O104 for a scarf.',
    tags: ['policy'],
    expect: { db: nothingReturned, answerIncludes: ['same price'] },
    oracle: {
      plan: [step('s1', 'Check the price of SCARF', [call('check_stock', { sku: 'SCARF' })], 'SCARF costs 25; the mug cost 12.')],
      answer: 'An exchange must be for a product of the same price: the scarf costs 25 and the mug 12, so it cannot be exchanged.',
    },
  },
  {
    id: 'order-status',
    request: 'What is the status of order O103, and what is in it?',
    expect: { db: { orders: { O103: { status: 'processing' } } }, answerIncludes: ['processing', 'jacket', 'scarf'] },
    oracle: {
      plan: [step('s1', 'Look up order O103', [getOrder('O103')], 'Processing: Jacket M (120) and Scarf (25).')],
      answer: 'Order O103 is still processing; it holds a jacket (size M, 120) and a scarf (25).',
    },
  },
  {
    id: 'two-orders-return',
    request: 'Return the mug from order O100 and one mug from order O104.',
    tags: ['parallel'],
    expect: {
      db: (db) => (db.returns.length === 2 && db.returns.every((r) => r.refund === 12)) || `returns: ${JSON.stringify(db.returns)}`,
      answerIncludes: ['24'],
    },
    oracle: {
      plan: [
        step('a', 'Return the MUG from O100', [returnItems('O100', [{ sku: 'MUG', qty: 1 }])], 'Refund 12.'),
        step('b', 'Return one MUG from O104', [returnItems('O104', [{ sku: 'MUG', qty: 1 }])], 'Refund 12.'),
      ],
      answer: 'Both mugs are returned, 12 each: 24 refunded in all.',
    },
  },
  {
    id: 'exchange-jacket',
    request: 'Exchange the jacket from order O105 for size L.',
    expect: {
      db: { exchanges: [{ orderId: 'O105', sku: 'JACKET-M', newSku: 'JACKET-L' }], products: { 'JACKET-L': { stock: 1 } } },
      answerIncludes: ['size L'],
    },
    oracle: {
      plan: [
        step(
          's1',
          'Exchange the JACKET-M from O105 for JACKET-L',
          [call('exchange_item', { orderId: 'O105', sku: 'JACKET-M', newSku: 'JACKET-L' })],
          'Exchange X1.',
        ),
      ],
      answer: 'The jacket from O105 is exchanged for size L (X1).',
    },
  },
];

/** Retail orders: returns and exchanges under a policy, multi-item, cancellations. */
export const retailSuite = defineSuite<RetailDb>({ name: 'retail', domain: retailDomain, tasks });
