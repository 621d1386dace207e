import './setup-esbuild.js';
import '@parcelgate/js/widgets/define';
import './page.js';
