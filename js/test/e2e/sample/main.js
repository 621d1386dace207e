import '@parcelgate/js/widgets/define';
import './page.js';
