import Foundation

/// The words the generator draws from.
///
/// Changing any list changes every published figure's data set: append to the lists only
/// together with a new ``SampleTripsDataSet/defaultSeed``.
enum Vocabulary {
    /// 2024-01-01T00:00:00Z, the earliest start date.
    static let firstStartDate = Date(timeIntervalSince1970: 1_704_067_200)

    static let destinations = [
        "Amsterdam", "Athens", "Auckland", "Bangkok", "Barcelona", "Beijing", "Berlin", "Bogotá", "Boston",
        "Brussels", "Budapest", "Buenos Aires", "Cairo", "Cape Town", "Chicago", "Copenhagen", "Cusco", "Delhi",
        "Dubai", "Dublin", "Dubrovnik", "Edinburgh", "Florence", "Geneva", "Hanoi", "Havana", "Helsinki",
        "Hong Kong", "Honolulu", "Istanbul", "Jaipur", "Jakarta", "Kyoto", "Lagos", "Lima", "Lisbon",
        "Ljubljana", "London", "Los Angeles", "Luang Prabang", "Lyon", "Madrid", "Marrakesh", "Melbourne",
        "Mexico City", "Miami", "Milan", "Montreal", "Moscow", "Mumbai", "Munich", "Nairobi", "Naples",
        "New Orleans", "New York", "Nice", "Osaka", "Oslo", "Paris", "Porto", "Prague", "Quebec City",
        "Queenstown", "Reykjavík", "Riga", "Rio de Janeiro", "Rome", "San Francisco", "Santiago", "São Paulo",
        "Seattle", "Seoul", "Seville", "Shanghai", "Singapore", "Split", "Stockholm", "Sydney", "Taipei",
        "Tallinn", "Tbilisi", "Tel Aviv", "Tokyo", "Toronto", "Tromsø", "Tunis", "Valletta", "Vancouver",
        "Venice", "Vienna", "Vilnius", "Warsaw", "Wellington", "Zanzibar", "Zermatt", "Zurich",
    ]

    static let themes = [
        "Getaway", "Food Tour", "Hiking Week", "Art Weekend", "Family Visit", "Road Trip", "Conference",
        "Honeymoon", "Ski Trip", "Beach Escape", "Photo Walk", "Wine Tasting", "Reunion", "Study Trip",
        "Music Festival", "Birthday Trip", "Long Weekend", "Sabbatical", "Marathon", "Workation",
        "Spring Break", "Winter Holiday", "Summer Holiday", "Anniversary", "Retreat", "Expedition",
        "City Break", "Sailing Week", "Cycling Tour", "Market Crawl",
    ]

    static let activities = [
        "Sunrise hike", "Sunset cruise", "Cooking class", "Street food tour", "Museum day", "Old town walk",
        "Kayak tour", "Bike rental", "Jazz club night", "Day trip to the coast", "Botanical garden",
        "Night market", "Rooftop dinner", "Cathedral visit", "Castle tour", "Hot springs", "Wine cellar visit",
        "Local football match", "Flea market", "Boat to the islands", "Snorkeling", "Architecture tour",
        "Tea ceremony", "Opera evening", "Surf lesson", "Vineyard picnic", "Harbour walk", "Art gallery crawl",
        "Bookshop hunt", "Food market breakfast", "Hot air balloon ride", "Train through the valley",
        "Photography walk", "Bakery tasting", "Chocolate workshop", "Craft beer tasting", "Mountain cable car",
        "Lighthouse visit", "Waterfall trail", "Ferry ride",
    ]

    static let detailOpeners = [
        "Book a week ahead for", "Ask the host about", "Bring cash for", "Leave early to catch",
        "Check the weather before", "Reserve a table for", "Buy tickets online for", "Meet the guide at nine for",
        "Pack light shoes for", "Take the tram to start", "Compare prices before", "Save an afternoon for",
    ]

    static let detailMiddles = [
        "the small family-run place near the square", "the tour that leaves from the main station",
        "the quieter route along the river", "the market stalls that open before noon",
        "the viewpoint everyone recommends", "the guided visit in English", "the evening slot with live music",
        "the long loop that ends at the harbour", "the tasting menu with local produce",
        "the workshop that takes small groups", "the late opening on Thursdays", "the boat that stops at three coves",
    ]

    static let detailClosers = [
        "Remember sunscreen.", "It is closed on Mondays.", "Card payments are not always accepted.",
        "Dress code is smart casual.", "Children go free before ten.", "Expect a queue at lunchtime.",
        "The last entry is an hour before closing.", "Photos are allowed without flash.",
        "Bring a light jacket for the evening.", "Cancellation is free up to a day before.",
    ]

    static let streets = [
        "Harbour", "Market", "Station", "Church", "Garden", "River", "Castle", "Mill", "Bridge", "Orchard",
        "Lighthouse", "Cedar", "Maple", "Olive", "Vineyard", "Chapel", "Fountain", "Meadow", "Quay", "Tower",
    ]

    static let streetKinds = ["Street", "Road", "Lane", "Avenue", "Square", "Row", "Way", "Boulevard"]

    static let placeKinds = ["Hotel", "Hostel", "Guesthouse", "Apartment", "Inn", "Lodge", "Residence", "Villa"]

    static let placeNames = [
        "Miramar", "Bellevue", "Central", "Aurora", "Panorama", "Riverside", "Old Town", "Harbour View",
        "Lindenhof", "Casa Azul", "Sunset", "Belvedere", "Park", "Grand", "Alpina", "Seaside",
    ]
}
