/** Repositories in and work out (docs/decisions.md §Repositories and pull requests): the steps the worker calls. */
export { checkoutRepositories, RepositoryUnavailableError } from './checkout';
export { deliverRepositoryChanges } from './delivery';
export { repositoriesRoot } from './git';
