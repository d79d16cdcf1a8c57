// agentcore-course: ipywidgets in jupyterlab-rise 0.43.1's slideshow (jupyterlab-contrib/rise#126).
//
// RISE shows a slideshow in a separate JupyterLab application (/rise/...), built with a fixed
// set of JupyterLab packages. jupyterlab_widgets 3.0.11 and later (ipywidgets 8.1.2+) import
// @jupyterlab/console for widgets in code consoles; that application shares no such module, so
// webpack refuses to load the widget manager ("Shared module @jupyterlab/console doesn't exist in
// shared scope default") and every widget falls back to its text. The widget manager uses the
// console package only for the optional IConsoleTracker token: this script gives it a module
// with that token and nothing else, so the optional service is absent (there are no consoles in
// a slideshow) and the manager loads. It runs before RISE's bundle and only on /rise/ pages.
(function () {
  'use strict';
  var EXTENSION = '@jupyter-widgets/jupyterlab-manager';
  var SHARED = '@jupyterlab/console';
  if (window.location.pathname.indexOf('/rise/') === -1) {
    return;
  }
  var consoleModule = {
    IConsoleTracker: {
      name: SHARED + ':IConsoleTracker',
      description: 'No code consoles in a RISE slideshow (agentcore-course patch).'
    }
  };
  var registry = window._JUPYTERLAB || (window._JUPYTERLAB = {});
  var container;
  // Each federated extension's remoteEntry assigns its container to _JUPYTERLAB[name]; RISE
  // then calls container.init(shareScope). Wrap init to add the module before the manager asks.
  Object.defineProperty(registry, EXTENSION, {
    configurable: true,
    enumerable: true,
    get: function () {
      return container;
    },
    set: function (loaded) {
      container = {
        get: loaded.get.bind(loaded),
        init: function (scope) {
          if (!scope[SHARED]) {
            scope[SHARED] = {
              '4.0.0': {
                get: function () {
                  return Promise.resolve(function () {
                    return consoleModule;
                  });
                },
                from: 'agentcore-course',
                eager: false,
                loaded: 1
              }
            };
          }
          return loaded.init(scope);
        }
      };
    }
  });
})();
