export * from './dialect';
export * from './json-pointer';
export * from './list-dialect';
export * from './list-paging';
export * from './presets';
export * from './profile';
export * from './signature-recipe';
export * from './signature-timestamp';
