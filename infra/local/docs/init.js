// Swagger UI for the docs page at `/` of the local runner (served from the swagger-ui-dist package).
window.ui = SwaggerUIBundle({
  urls: [
    { url: '/openapi/notes.json', name: 'Notes' },
    { url: '/openapi/news.json', name: 'News' },
    { url: '/openapi/bank.json', name: 'Bank' },
  ],
  'urls.primaryName': new URLSearchParams(location.search).get('api') || 'Notes',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  persistAuthorization: true,
});
