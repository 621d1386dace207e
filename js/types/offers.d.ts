// Types of @parcelgate/js/offers (server side: offers and drop points verified offline).
export {
  verifyOffer,
  verifyPoint,
  offerDiffers,
  offerTag,
  OfferError,
  type OfferDifference,
  type OfferErrorReason,
  type OfferFacts,
  type OfferKeys,
  type OfferParcel,
  type OfferPlace,
  type OfferSource,
  type PointFacts,
} from '../core.js';
