package core

// For offers_test.go (package core_test).
const OfferMessageCount = offerMessageCount

var OfferSay = offerSay
