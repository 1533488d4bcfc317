export { BaseError } from './BaseError.ts';
export { ConfigError } from './ConfigError.ts';
export { NotFoundError } from './NotFoundError.ts';
export { UnavailableError, type Dependency } from './UnavailableError.ts';
export { DatabaseUnavailableError } from './DatabaseUnavailableError.ts';
export { ValidationError, type FieldIssue } from './ValidationError.ts';
