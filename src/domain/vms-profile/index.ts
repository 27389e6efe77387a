export * from './dialect';
export * from './json-pointer';
export * from './presets';
export * from './profile';
export * from './signature-recipe';
