export * from './dialect';
export * from './json-pointer';
export * from './list-dialect';
export * from './presets';
export * from './profile';
export * from './signature-recipe';
