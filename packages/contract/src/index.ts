export * from './common.ts';
export * from './accounts.ts';
export * from './authors.ts';
export * from './books.ts';
export * from './genres.ts';
export * from './chapters.ts';
export * from './history.ts';
export * from './follows.ts';
